import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { zipFiles } from '@apex/testing';

/** examples/apps/WhereAmI.app, the sample app of the developer's loop. */
export const SAMPLE_APP = path.resolve(__dirname, '../../../../examples/apps/WhereAmI.app');
export const SAMPLE_ID = 'dev.apex.WhereAmI';
export const SAMPLE_NAME = 'Where Am I';

/**
 * The sample copied into `dir` (inside the roots Apex may read from) as an `.app` folder and as an `.ipa`
 * zipped at run time (Payload/WhereAmI.app/…): no binaries in the repository.
 */
export async function sampleBuildsIn(dir: string): Promise<{ app: string; ipa: string }> {
  await mkdir(dir, { recursive: true });
  const app = path.join(dir, 'WhereAmI.app');
  await cp(SAMPLE_APP, app, { recursive: true });
  const files = await readdir(SAMPLE_APP);
  const ipa = path.join(dir, 'WhereAmI.ipa');
  await writeFile(ipa, zipFiles(await Promise.all(files.map(async (name) => ({ name: `Payload/WhereAmI.app/${name}`, data: await readFile(path.join(SAMPLE_APP, name)) })))));
  return { app, ipa };
}

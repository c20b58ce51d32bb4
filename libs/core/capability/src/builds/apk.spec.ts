import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { zipFiles } from '@apex/zip/testing';
import { ApexError } from '@apex/errors';
import { leakedWordsIn } from '@apex/errors/testing';
import { readApk } from './apk';

describe('readApk (an Android build on the Apex host)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apex-apk-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function refusal(path: string): Promise<ApexError> {
    const error = await readApk(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe('invalid_argument');
    expect(leakedWordsIn(`${(error as ApexError).message} ${(error as ApexError).hint ?? ''}`)).toEqual([]);
    return error as ApexError;
  }

  it('reads the app id, its name from the resource table, and its version', async () => {
    const path = join(dir, 'app-debug.apk');
    await writeFile(path, buildTestApk({ appId: 'com.example.loop', label: 'Loop Demo', labelAsResource: true, versionName: '3.1' }));
    expect(await readApk(path)).toEqual({ appId: 'com.example.loop', name: 'Loop Demo', version: '3.1' });
  });

  it('refuses a text file named .apk, an APK without a manifest, a directory and a missing file', async () => {
    const text = join(dir, 'notes.apk');
    await writeFile(text, 'just some text\n');
    expect((await refusal(text)).message).toMatch(/notes\.apk" is not a usable Android app build: it is not a zip archive/);
    const empty = join(dir, 'empty.apk');
    await writeFile(empty, zipFiles([{ name: 'res/values.xml', data: Buffer.from('x') }]));
    const noManifest = await refusal(empty);
    expect(noManifest.message).toMatch(/has no AndroidManifest\.xml/);
    expect(noManifest.issues).toEqual([{ path: 'path', message: 'it has no AndroidManifest.xml (an APK needs one)' }]);
    const folder = join(dir, 'folder.apk');
    await mkdir(folder);
    expect((await refusal(folder)).message).toMatch(/cannot be (opened|read)|not a file/);
    expect((await refusal(join(dir, 'missing.apk'))).message).toMatch(/cannot be opened/);
  });

  it('refuses a zip bomb without unpacking it', async () => {
    const bomb = join(dir, 'bomb.apk');
    await writeFile(bomb, zipFiles([{ name: 'AndroidManifest.xml', data: Buffer.alloc(64 * 1024 * 1024), declaredSize: 4096 }]));
    expect((await refusal(bomb)).message).toMatch(/does not unpack/);
  });
});

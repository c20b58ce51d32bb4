import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface EnsureBuiltOptions {
  /** The file the build makes (its presence means built). */
  file: string;
  /** What makes it, run when it is missing: the program and its arguments. */
  command: readonly [string, ...string[]];
  /** How the command is shown to a person (e.g. `npx nx run cli:build`). */
  display: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Where the build's output lines go, as they come (the bench shows them). */
  log: (line: string) => void;
}

/**
 * Makes sure a build the bench measures exists: when `file` is missing it runs the build, showing its output,
 * and fails with the build's exit code when it cannot make it. Returns whether it had to build.
 */
export async function ensureBuilt(options: EnsureBuiltOptions): Promise<'present' | 'built'> {
  if (existsSync(options.file)) return 'present';
  options.log(`${options.file} is missing: building it with \`${options.display}\``);
  const [program, ...args] = options.command;
  const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => options.log(`  ${line}`));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`\`${options.display}\` failed (exit code ${code}); its output is above`);
  if (!existsSync(options.file)) throw new Error(`\`${options.display}\` succeeded but did not make ${options.file}`);
  return 'built';
}

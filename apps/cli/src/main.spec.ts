import * as path from 'node:path';
import { spawnNode } from '@apex/testing';

const bin = path.resolve(__dirname, '../bin/apex.js');

/** Runs `apex …args` to its end (a deadline for a slow machine, not a timing check). */
async function apex(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnNode([bin, ...args]);
  const { code } = await run.waitForExit({ timeoutMs: 30_000 });
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('apex command', () => {
  it('lists the subcommands with --help', async () => {
    const { code, stdout } = await apex('--help');
    expect(code).toBe(0);
    for (const name of ['serve', 'mcp', 'emulator', 'devices']) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('says in serve --help and mcp --help that no config means both virtual phones', async () => {
    for (const command of ['serve', 'mcp']) {
      const { code, stdout } = await apex(command, '--help');
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: apex ${command} `));
      expect(stdout).toMatch(/^ {2}iphone-virtual .*default device/m);
      expect(stdout).toMatch(/^ {2}android-virtual .*Android 14/m);
    }
  });

  it('answers an unknown subcommand with a usage error and exit code 2', async () => {
    const { code, stderr } = await apex('frobnicate');
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('answers an unknown flag with a usage error and exit code 2', async () => {
    const { code, stderr } = await apex('devices', '--frob');
    expect(code).toBe(2);
    expect(stderr).toMatch(/Unknown option '--frob'/);
    expect(stderr).toMatch(/Usage: apex devices/);
  });
});

import { execFile } from 'node:child_process';
import * as path from 'node:path';

const bin = path.resolve(__dirname, '../bin/apex.js');

function apex(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('apex command', () => {
  it('lists the subcommands with --help', async () => {
    const { code, stdout } = await apex('--help');
    expect(code).toBe(0);
    for (const name of ['serve', 'mcp', 'emulator', 'devices']) expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
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

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureBuilt } from './built-package';

/** A stand-in build: a real child process that prints a line and writes the file (or fails). */
function build(script: string): readonly [string, ...string[]] {
  return [process.execPath, '-e', script];
}

describe('ensureBuilt (what the start-up section measures is built first)', () => {
  let dir: string;
  let file: string;
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-built-'));
    file = path.join(dir, 'bin', 'apex.js');
    lines.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the build when the file is missing, showing its output, and the file is there afterwards', async () => {
    const script = `require('fs').mkdirSync(${JSON.stringify(path.dirname(file))}); require('fs').writeFileSync(${JSON.stringify(file)}, ''); console.log('built it'); console.error('a warning')`;
    expect(await ensureBuilt({ file, command: build(script), display: 'npx nx run cli:build', cwd: dir, log })).toBe('built');
    expect(existsSync(file)).toBe(true);
    expect(lines[0]).toContain('building it with `npx nx run cli:build`');
    expect(lines).toEqual(expect.arrayContaining(['  built it', '  a warning']));
  });

  it('does not build what is already there', async () => {
    writeFileSync(path.join(dir, 'apex.js'), '');
    const present = path.join(dir, 'apex.js');
    expect(await ensureBuilt({ file: present, command: build('process.exit(7)'), display: 'build', cwd: dir, log })).toBe('present');
    expect(lines).toEqual([]);
  });

  it('fails with the exit code when the build fails, and when it makes nothing', async () => {
    await expect(ensureBuilt({ file, command: build("console.log('no space'); process.exit(3)"), display: 'npx nx run cli:build', cwd: dir, log })).rejects.toThrow(
      '`npx nx run cli:build` failed (exit code 3)',
    );
    expect(lines).toContain('  no space');
    await expect(ensureBuilt({ file, command: build(''), display: 'the build', cwd: dir, log })).rejects.toThrow(`did not make ${file}`);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { BenchReport } from './runner';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
/** What `npm run bench` runs: the bench bundled as the package is, then run with the command's arguments. */
const SCRIPT = path.join(ROOT, 'tools/bench/scripts/bench.mjs');

describe('npm run bench: the bench bundled as the package is', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-script-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a section from the bundle and says so in the report', async () => {
    const { stdout } = await run(process.execPath, [SCRIPT, '--quick', '--only', 'emulator', '--out', dir], { cwd: ROOT, timeout: 120_000 });
    expect(stdout).toMatch(/^Apex benchmarks \(quick: smoke figures, not for quoting\), bundled as the package is — /);
    const report = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as BenchReport;
    expect(report).toMatchObject({ build: 'bundled', command: `npm run bench -- --quick --only emulator --out ${dir}`, failures: {} });
    expect(report.sections.emulator?.rows.length).toBeGreaterThanOrEqual(6);
    expect(readFileSync(path.join(dir, 'latest.md'), 'utf8')).toMatch(/^Run .*\(bundled as the package is\)$/m);
  }, 180_000);

  it('answers --help with the sections, and a wrong argument with exit code 2 and no stack', async () => {
    const { stdout } = await run(process.execPath, [SCRIPT, '--help'], { cwd: ROOT, timeout: 60_000 });
    expect(stdout).toMatch(/^usage: npm run bench -- /);
    expect(stdout).toMatch(/^ {2}operations {7}/m);
    const refused = await run(process.execPath, [SCRIPT, '--out'], { cwd: ROOT, timeout: 60_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toBe('bench: --out needs a directory\n');
  }, 120_000);
});

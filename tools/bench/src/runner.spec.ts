import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { emulatorSection } from './emulator.bench';
import { createOperationsSection } from './operations.bench';
import { runBench, type BenchReport } from './runner';
import { SECTIONS } from './sections';

/** Keeps the benchmark from rotting: the quickest run of two sections, checked for shape, not for speed. */
describe('npm run bench, quick, emulator + tap', () => {
  let dir: string;
  let report: BenchReport;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-spec-'));
    report = await runBench({
      sections: [emulatorSection, createOperationsSection({ operations: ['tap'] })],
      quick: true,
      outDir: dir,
      log: (line) => lines.push(line),
    });
  }, 180_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs both sections without a failure', () => {
    expect(report.failures).toEqual({});
    expect(Object.keys(report.sections)).toEqual(['emulator', 'operations']);
  });

  it('writes latest.json and a timestamped copy with the same report', () => {
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(3);
    expect(files).toEqual(expect.arrayContaining(['latest.json', 'latest.md']));
    expect(files.find((f) => f.startsWith('bench-'))).toMatch(/^bench-.*-quick\.json$/);
    expect(readFileSync(path.join(dir, 'latest.md'), 'utf8')).toMatch(/^\| tap \|/m);
    const written = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as BenchReport;
    expect(written).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('describes the machine, with the load average at start and end', () => {
    expect(report.machine).toMatchObject({ cpus: expect.any(Number), model: expect.any(String), memoryBytes: expect.any(Number), node: process.version });
    expect(report.machine.loadAverageStart).toHaveLength(3);
    expect(report.machine.loadAverageEnd).toHaveLength(3);
    expect(report.quick).toBe(true);
  });

  it('reports medians and p95 for every emulator request, and its two targets', () => {
    const emulator = report.sections.emulator;
    expect(emulator?.rows.length).toBeGreaterThanOrEqual(6);
    for (const row of emulator?.rows ?? []) {
      expect(Number.isFinite(row['p50 ms'])).toBe(true);
      expect(Number.isFinite(row['p95 ms'])).toBe(true);
    }
    expect(emulator?.targets.map((t) => t.figure)).toEqual([expect.stringMatching(/screenshot/), expect.stringMatching(/source/)]);
  });

  it('measures tap through every arm, each as a finite ratio to the raw floor', () => {
    const operations = report.sections.operations;
    expect(operations?.rows).toHaveLength(1);
    const row = operations?.rows[0] ?? {};
    expect(row.operation).toBe('tap');
    for (const arm of ['driver', 'hub', 'operation', 'mcp-mem', 'mcp-stdio', 'rest']) {
      const ratio = row[`${arm} ×`];
      expect(typeof ratio).toBe('number');
      expect(Number.isFinite(ratio)).toBe(true);
      expect(ratio).toBeGreaterThan(0);
    }
    expect(operations?.targets).toHaveLength(3);
    for (const t of operations?.targets ?? []) expect(Number.isFinite(t.value)).toBe(true);
  });

  it('prints a table per section', () => {
    const text = lines.join('\n');
    expect(text).toMatch(/GET \/screenshot, screen changed before each/);
    expect(text).toMatch(/^tap\s/m);
  });

  it('knows every section by a unique name', () => {
    const names = SECTIONS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['emulator', 'operations', 'drivers', 'perception', 'sizes', 'scale', 'memory', 'planner', 'evidence', 'cluster']));
  });
});

import { describeWithRealAdb } from '@apex/virtual-device/testing';
import { androidSection } from './android.bench';

/** Keeps the section from rotting: the quick run checked for shape, not for speed. */
describeWithRealAdb('bench android section, quick', () => {
  it('measures tap, screenshot and UI tree on every arm, each with finite ratios and two targets', async () => {
    const lines: string[] = [];
    const result = await androidSection.run({ quick: true, log: (line) => lines.push(line) });
    expect(result.rows.map((r) => r.operation)).toEqual(['tap', 'screenshot', 'UI tree']);
    for (const row of result.rows) {
      for (const column of ['adb p50 ms', 'raw p50 ms', 'driver p50 ms', 'driver × raw', 'driver × adb', 'adb p95 ms', 'raw p95 ms', 'driver p95 ms']) {
        expect(Number.isFinite(row[column])).toBe(true);
        expect(row[column]).toBeGreaterThan(0);
      }
      expect(row.n).toBe(10);
    }
    const tap = result.rows[0] ?? {};
    for (const column of ['operation p50 ms', 'operation × raw', 'operation × adb']) expect(Number.isFinite(tap[column])).toBe(true);
    expect(result.targets.map((t) => t.figure)).toHaveLength(6);
    for (const t of result.targets) expect(Number.isFinite(t.value)).toBe(true);
    expect(result.notes.join('\n')).not.toMatch(/changed the screen/);
  }, 120_000);
});

describe('bench android section without adb', () => {
  const path = process.env['PATH'];
  afterEach(() => {
    process.env['PATH'] = path;
  });

  it('is skipped with the reason, and no failure', async () => {
    process.env['PATH'] = '';
    const lines: string[] = [];
    const result = await androidSection.run({ quick: true, log: (line) => lines.push(line) });
    expect(result.rows).toEqual([]);
    expect(result.notes).toEqual([expect.stringMatching(/^skipped: the real adb is not on PATH/)]);
    expect(lines.join('\n')).toMatch(/skipped: the real adb is not on PATH/);
  });
});

import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import type { CrashReport, LogEntry, LogQuery } from '@apex/port';
import { rejectionOf } from '@apex/errors/testing';
import { MAX_LOG_BYTES, MAX_LOG_ENTRIES, MAX_LOG_LINES_SCANNED, REDACTED, runOperation, type OperationContext } from './index';
import { LogWindow } from './evidence/log-window';

const T0 = Date.parse('2026-12-06T10:00:00.000Z');

function line(i: number, extra: Partial<LogEntry> = {}): LogEntry {
  return { time: T0 + i, level: 'info', process: 'com.example.app', pid: 100, message: `line ${i}`, ...extra };
}

/** A driver whose log is `source()` (read once per call), with one crash report. */
function phoneWith(source: (query: LogQuery) => AsyncIterable<LogEntry>): { driver: FakeDriver; queries: LogQuery[] } {
  const driver = new FakeDriver();
  const queries: LogQuery[] = [];
  const report: CrashReport = {
    id: 'crash-1',
    app: 'com.example.app',
    time: T0,
    exception: 'EXC_CRASH',
    signal: 'SIGABRT',
    reason: 'boom',
    frames: Array.from({ length: 100 }, (_, i) => `${i} frame`),
    text: 'x'.repeat(40_000),
  };
  Object.assign(driver, {
    logs: (query: LogQuery) => {
      queries.push(query);
      return source(query);
    },
    crashReports: async () => [{ id: report.id, app: report.app, time: report.time, exception: report.exception }],
    crashReport: async (id: string) => (id === report.id ? report : undefined),
  });
  return { driver, queries };
}

async function* lines(entries: LogEntry[]): AsyncGenerator<LogEntry> {
  for (const e of entries) yield e;
}

describe('get_logs / list_crashes / get_crash (capability)', () => {
  let hub: DeviceHub;
  let ctx: OperationContext;
  afterEach(() => hub.close());

  function start(driver: FakeDriver): void {
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'phone', driver });
    ctx = { hub, perception: new Perception(hub) };
  }

  it('returns the newest lines within the limit, newest last, and counts the rest', async () => {
    start(phoneWith(() => lines(Array.from({ length: 50 }, (_, i) => line(i)))).driver);
    const { output } = await runOperation(ctx, 'get_logs', { limit: 10 });
    const entries = output.entries as { message: string; time: string }[];
    expect(entries.map((e) => e.message)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${40 + i}`));
    expect(entries[0]?.time).toBe(new Date(T0 + 40).toISOString());
    expect(output.omitted).toBe(40);
    expect(output.complete).toBe(true);
  });

  it('filters by level, app and text, and passes since / app / level to the device', async () => {
    const { driver, queries } = phoneWith(() =>
      lines([
        line(1, { level: 'debug', message: 'noise' }),
        line(2, { level: 'error', message: 'Disk FULL' }),
        line(3, { level: 'fault', process: 'other', message: 'disk full elsewhere' }),
        line(4, { level: 'fault', app: 'com.example.app', process: 'helper', message: 'disk full in helper' }),
      ]),
    );
    start(driver);
    const { output } = await runOperation(ctx, 'get_logs', { level: 'error', app: 'com.example.app', grep: 'disk full', since: new Date(T0).toISOString() });
    expect((output.entries as { message: string }[]).map((e) => e.message)).toEqual(['Disk FULL', 'disk full in helper']);
    expect(queries[0]).toEqual({ sinceMs: T0, app: 'com.example.app', minLevel: 'error' });
  });

  it('"lastAction" reads from the start of the last action Apex ran on the device', async () => {
    const { driver, queries } = phoneWith(() => lines([]));
    start(driver);
    await runOperation(ctx, 'get_logs', { since: 'lastAction' });
    expect(queries[0]?.sinceMs).toBeUndefined();
    const before = Date.now();
    await runOperation(ctx, 'tap', { x: 10, y: 10, observe: 'none' });
    await runOperation(ctx, 'take_screenshot', {});
    const { output } = await runOperation(ctx, 'get_logs', { since: 'lastAction' });
    expect(queries[1]?.sinceMs).toBeGreaterThanOrEqual(before);
    expect(queries[1]?.sinceMs).toBeLessThanOrEqual(Date.now());
    expect(output.since).toBe(new Date(queries[1]?.sinceMs as number).toISOString());
  });

  it('redacts text typed (and pasted) through Apex from the messages, and a grep for it finds nothing', async () => {
    const secret = 'hunter2-pass';
    start(phoneWith(() => lines([line(1, { message: `login with ${secret} ok` }), line(2, { message: 'clipboard: pasted-secret' })])).driver);
    await runOperation(ctx, 'input_text', { text: secret, observe: 'none' });
    await runOperation(ctx, 'set_clipboard', { text: 'pasted-secret' });
    const { output, summary } = await runOperation(ctx, 'get_logs', {});
    expect(JSON.stringify(output)).not.toContain(secret);
    expect(JSON.stringify(output)).not.toContain('pasted-secret');
    expect(summary).not.toContain('pasted-secret');
    expect((output.entries as { message: string }[])[0]?.message).toBe(`login with ${REDACTED} ok`);
    const grep = await runOperation(ctx, 'get_logs', { grep: 'hunter2' });
    expect(grep.output.entries).toEqual([]);
  });

  it('a flooding source that never ends is cut off by count, and what is kept stays within the limits', async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<LogEntry> {
      for (;;) {
        produced += 1;
        yield line(produced, { message: `flood ${produced} ${'y'.repeat(300)}` });
      }
    }
    start(phoneWith(() => endless()).driver);
    const { output } = await runOperation(ctx, 'get_logs', { limit: MAX_LOG_ENTRIES });
    expect(produced).toBe(MAX_LOG_LINES_SCANNED);
    expect(output.complete).toBe(false);
    const entries = output.entries as { message: string }[];
    expect(Buffer.byteLength(JSON.stringify(entries))).toBeLessThanOrEqual(MAX_LOG_BYTES);
    expect(entries.length + (output.omitted as number)).toBe(MAX_LOG_LINES_SCANNED);
    expect(entries[entries.length - 1]?.message).toContain(`flood ${MAX_LOG_LINES_SCANNED} `);
  });

  it('the window holds at most twice its limit however many lines it is offered', () => {
    const window = new LogWindow(5, 1_000_000);
    let peak = 0;
    for (let i = 0; i < 10_000; i++) {
      window.add({ time: '', level: 'info', process: 'p', message: String(i) });
      peak = Math.max(peak, (window as unknown as { kept: unknown[] }).kept.length);
    }
    expect(window.size).toBe(5);
    expect(peak).toBeLessThanOrEqual(11);
    expect(window.omitted).toBe(9_995);
  });

  it('refuses bad input with invalid_argument naming the field', async () => {
    start(phoneWith(() => lines([])).driver);
    for (const [input, path] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: MAX_LOG_ENTRIES + 1 }, 'limit'],
      [{ level: 'warning' }, 'level'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: -5 }, 'since'],
      [{ grep: '' }, 'grep'],
      [{ app: 'not an id!' }, 'app'],
      [{ extra: 1 }, ''],
    ] as const) {
      const error = await rejectionOf(runOperation(ctx, 'get_logs', input));
      expect(error.code).toBe('invalid_argument');
      expect(JSON.stringify(error.issues ?? []) + error.message).toContain(path);
    }
    expect((await rejectionOf(runOperation(ctx, 'get_crash', { id: 'nope' }))).code).toBe('invalid_argument');
    expect((await rejectionOf(runOperation(ctx, 'get_crash', {}))).code).toBe('invalid_argument');
  });

  it('lists crash reports and returns one bounded', async () => {
    start(phoneWith(() => lines([])).driver);
    const list = await runOperation(ctx, 'list_crashes', { app: 'com.example.app' });
    expect(list.output.crashes).toEqual([{ id: 'crash-1', app: 'com.example.app', time: new Date(T0).toISOString(), exception: 'EXC_CRASH' }]);
    expect((await runOperation(ctx, 'list_crashes', { app: 'com.other' })).output.crashes).toEqual([]);
    const { output } = await runOperation(ctx, 'get_crash', { id: 'crash-1' });
    expect(output).toMatchObject({ exception: 'EXC_CRASH', signal: 'SIGABRT', reason: 'boom', framesOmitted: 36, textTruncated: true });
    expect((output.frames as string[]).length).toBe(64);
    expect((output.text as string).length).toBeLessThanOrEqual(32_000);
  });

  it('a device without a log is unsupported_operation with a reason', async () => {
    start(new FakeDriver());
    for (const [name, input] of [['get_logs', {}], ['list_crashes', {}], ['get_crash', { id: 'x' }]] as const) {
      const error = await rejectionOf(runOperation(ctx, name, input));
      expect(error.code).toBe('unsupported_operation');
      expect(error.hint).toMatch(/host's tools/);
    }
  });
});

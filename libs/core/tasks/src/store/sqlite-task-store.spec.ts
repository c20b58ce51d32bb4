import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task, TaskStep } from '../model/task';
import { hostname } from 'node:os';
import { ScreenshotStore } from './screenshot-store';
import { SqliteTaskStore } from './sqlite-task-store';

function task(id: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    deviceId: 'phone-a',
    goal: `goal of ${id}`,
    status: 'queued',
    planner: 'offline',
    maxSteps: 20,
    timeoutMs: 300_000,
    createdAt: '2026-01-01T00:00:00.000Z',
    steps: [],
    ...overrides,
  };
}

const step = (index: number): TaskStep => ({
  index,
  observation: `screen ${index}`,
  action: { operation: 'tap', arguments: { x: 10 + index, y: 20 } },
  outcome: { status: 'ok', detail: 'Screen now: Settings' },
  durationMs: 12.5,
});

describe('SqliteTaskStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-task-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates, updates and reads back a task with its steps', async () => {
    const store = new SqliteTaskStore(dir);
    (await store.insert(task('t1')));
    (await store.update('t1', { status: 'running', startedAt: '2026-01-01T00:00:01.000Z' }));
    (await store.appendStep('t1', step(0)));
    (await store.appendStep('t1', { ...step(1), outcome: { status: 'error', detail: 'no such element', code: 'element_not_found' } }));
    (await store.update('t1', {
      status: 'succeeded',
      finishedAt: '2026-01-01T00:00:02.000Z',
      result: 'Opened Settings.',
      usage: { inputTokens: 10, outputTokens: 3 },
      suggestedPatch: [{ step: 2, was: 'tap: System Update', now: 'tap: Software Update' }],
    }));
    const read = (await store.get('t1'));
    expect(read).toEqual({
      ...task('t1'),
      status: 'succeeded',
      startedAt: '2026-01-01T00:00:01.000Z',
      finishedAt: '2026-01-01T00:00:02.000Z',
      result: 'Opened Settings.',
      usage: { inputTokens: 10, outputTokens: 3 },
      suggestedPatch: [{ step: 2, was: 'tap: System Update', now: 'tap: Software Update' }],
      steps: [step(0), { ...step(1), outcome: { status: 'error', detail: 'no such element', code: 'element_not_found' } }],
    });
    expect((await store.get('nope'))).toBeUndefined();
    (await store.close());
  });

  it('lists newest first, filtered by status and device, with step counts', async () => {
    const store = new SqliteTaskStore(dir);
    (await store.insert(task('a')));
    (await store.insert(task('b', { deviceId: 'phone-b' })));
    (await store.insert(task('c', { status: 'failed' })));
    (await store.appendStep('a', step(0)));
    expect((await store.list()).map((t) => t.id)).toEqual(['c', 'b', 'a']);
    expect((await store.list({ status: 'queued' })).map((t) => t.id)).toEqual(['b', 'a']);
    expect((await store.list({ deviceId: 'phone-a' })).map((t) => [t.id, t.stepCount])).toEqual([
      ['c', 0],
      ['a', 1],
    ]);
    expect((await store.list({ limit: 1 })).map((t) => t.id)).toEqual(['c']);
    expect((await store.queued()).map((t) => t.id)).toEqual(['a', 'b']);
    (await store.close());
  });

  describe('ownership by lease', () => {
    let clock: number;
    const now = () => clock;
    beforeEach(() => {
      clock = Date.parse('2026-01-01T00:00:00.000Z');
    });
    /** A store for the instance `id`; by default its pid is this live process's, as with a zombie or a reused pid. */
    const storeOf = (id: string, pid = process.pid) =>
      new SqliteTaskStore(dir, { lease: { instance: { id, pid, host: hostname(), since: new Date(clock).toISOString() }, leaseMs: 1_000, renewMs: 300, now } });

    it('keeps everything across a reopen; tasks of an owner whose lease expired are interrupted or adopted, whatever its pid', async () => {
      const first = storeOf('crashed');
      (await first.renewLease());
      (await first.insert(task('done', { status: 'succeeded', result: 'ok' })));
      (await first.insert(task('mid')));
      expect((await first.startRun('mid', '2026-01-01T00:00:01.000Z'))).toBe(true);
      (await first.appendStep('mid', step(0)));
      (await first.insert(task('waiting')));
      (await first.close());

      // The lease names a pid that is alive (this process): while it is current, the tasks are left alone.
      const second = storeOf('restarted');
      (await second.renewLease());
      clock += 999;
      expect((await second.nextLeaseExpiry())).toBe(Date.parse('2026-01-01T00:00:01.000Z'));
      expect((await second.failInterrupted('2026-01-01T00:00:59.000Z'))).toEqual([]);
      expect((await second.adoptQueued())).toEqual([]);

      clock += 1;
      expect((await second.failInterrupted('2026-01-01T00:01:00.000Z'))).toEqual(['mid']);
      const mid = (await second.get('mid'));
      expect(mid?.status).toBe('failed');
      expect(mid?.error?.reason).toBe('interrupted');
      expect(mid?.finishedAt).toBe('2026-01-01T00:01:00.000Z');
      expect(mid?.steps).toEqual([step(0)]);
      expect((await second.get('done'))?.result).toBe('ok');
      expect((await second.adoptQueued()).map((t) => t.id)).toEqual(['waiting']);
      // The expired lease is gone with its tasks; nothing is recovered twice.
      expect((await second.nextLeaseExpiry())).toBeUndefined();
      expect((await second.failInterrupted('2026-01-01T00:02:00.000Z'))).toEqual([]);
      expect((await second.adoptQueued())).toEqual([]);
      expect((await second.startRun('waiting', '2026-01-01T00:02:00.000Z'))).toBe(true);
      (await second.close());
    });

    it('leaves the tasks of a process that keeps renewing its lease alone', async () => {
      const other = storeOf('other', 2147483646);
      (await other.renewLease());
      (await other.insert(task('theirs-running')));
      (await other.startRun('theirs-running', '2026-01-01T00:00:01.000Z'));
      (await other.insert(task('theirs-queued')));
      const mine = storeOf('me');
      (await mine.renewLease());
      (await mine.insert(task('mine-queued')));
      for (let i = 0; i < 5; i += 1) {
        clock += 600;
        (await other.renewLease());
        expect((await mine.failInterrupted(new Date(clock).toISOString()))).toEqual([]);
        expect((await mine.adoptQueued())).toEqual([]);
      }
      expect((await mine.get('theirs-running'))?.status).toBe('running');
      // Only the owner starts its queued tasks.
      expect((await mine.startRun('theirs-queued', '2026-01-01T00:00:05.000Z'))).toBe(false);
      expect((await mine.startRun('mine-queued', '2026-01-01T00:00:05.000Z'))).toBe(true);
      (await other.close());
      (await mine.close());
    });

    it('treats a task whose owner has no lease at all (released, or written by an older Apex) as orphaned', async () => {
      const gone = storeOf('released');
      (await gone.renewLease());
      (await gone.insert(task('left-running')));
      (await gone.startRun('left-running', '2026-01-01T00:00:01.000Z'));
      (await gone.insert(task('left-queued')));
      (await gone.releaseLease());
      (await gone.close());
      const mine = storeOf('me');
      expect((await mine.failInterrupted('2026-01-01T00:00:02.000Z'))).toEqual(['left-running']);
      expect((await mine.adoptQueued()).map((t) => t.id)).toEqual(['left-queued']);
      (await mine.close());
    });
  });
});

describe('ScreenshotStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-shots-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the newest screenshots per task', async () => {
    const shots = new ScreenshotStore(dir, { perTask: 2 });
    expect(shots.save('t1', 'step-000.jpg', Buffer.alloc(10))).toEqual([]);
    expect(shots.save('t1', 'step-001.jpg', Buffer.alloc(10))).toEqual([]);
    expect(shots.save('t1', 'step-002.jpg', Buffer.alloc(10))).toEqual([{ taskId: 't1', ref: 'step-000.jpg' }]);
    expect(readdirSync(join(dir, 't1')).sort()).toEqual(['step-001.jpg', 'step-002.jpg']);
  });

  it('evicts the oldest files over the byte budget, across tasks and restarts', async () => {
    const first = new ScreenshotStore(dir, { maxTotalBytes: 250 });
    first.save('old', 'step-000.jpg', Buffer.alloc(100));
    first.save('old', 'step-001.jpg', Buffer.alloc(100));
    const reopened = new ScreenshotStore(dir, { maxTotalBytes: 250 });
    expect(reopened.usedBytes).toBe(200);
    const evicted = reopened.save('new', 'step-000.jpg', Buffer.alloc(100));
    expect(evicted).toHaveLength(1);
    expect(evicted[0].taskId).toBe('old');
    expect(reopened.usedBytes).toBe(200);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres, type TestPostgres } from '@apex/testing/postgres';
import type { Task, TaskStep } from '../model/task';
import { MIGRATIONS } from './postgres/migrations';
import { PostgresDatabase } from './postgres/postgres-database';
import { PostgresDeviceLeases } from './postgres/postgres-device-leases';
import { PostgresRecordings, RECORDING_CHUNK_BYTES } from './postgres/postgres-recordings';
import { PostgresStepImages } from './postgres/postgres-step-images';
import { PostgresTaskStore } from './postgres/postgres-task-store';
import { SqliteTaskStore } from './sqlite-task-store';
import type { TaskStore } from './task-store';

/** One clock for every process of a test, moved by hand: lease expiry without waiting. */
let clock = Date.parse('2026-01-01T00:00:00.000Z');
const LEASE = { leaseMs: 3_000, renewMs: 1_000, now: () => clock };
const instance = (id: string) => ({ id, pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' });

function task(id: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    deviceId: 'phone-a',
    goal: `goal of ${id}`,
    status: 'queued',
    planner: 'offline',
    maxSteps: 20,
    timeoutMs: 300_000,
    createdAt: new Date(clock).toISOString(),
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
  target: { text: 'General' },
});

interface Backend {
  /** The store of process `id` (all processes share one place). */
  open(id: string): TaskStore;
  /** Whether a running task that recorded no step goes back to the queue (instead of failing) when its owner dies. */
  requeuesUnstarted: boolean;
}

/** The rules every task store keeps, whatever holds the tasks. */
function storeContract(name: string, backend: () => Backend) {
  describe(`the task store contract: ${name}`, () => {
    let stores: TaskStore[] = [];
    const open = (id: string) => {
      const store = backend().open(id);
      stores.push(store);
      return store;
    };
    beforeEach(() => {
      clock = Date.parse('2026-01-01T00:00:00.000Z');
    });
    afterEach(async () => {
      for (const store of stores) await store.close();
      stores = [];
    });

    it('stores a task, its steps and its end, and reads them back (list newest first with step counts, queued oldest first)', async () => {
      const store = open('me');
      await store.renewLease();
      expect(await store.insert(task('t1'))).toBe(true);
      clock += 1;
      await store.insert(task('t2', { deviceId: 'phone-b' }));
      expect(await store.startRun('t1', '2026-01-01T00:00:01.000Z')).toBe(true);
      expect(await store.startRun('t1', '2026-01-01T00:00:01.000Z')).toBe(false);
      await store.appendStep('t1', step(0));
      await store.appendStep('t1', { ...step(1), outcome: { status: 'error', detail: 'no such element', code: 'element_not_found' }, screenshotRef: 'step-001.jpg' });
      await store.setStepScreenshot('t1', 1, undefined);
      await store.update('t1', {
        status: 'succeeded',
        finishedAt: '2026-01-01T00:00:02.000Z',
        result: 'Opened Settings.',
        usage: { inputTokens: 10, outputTokens: 3 },
        suggestedPatch: [{ step: 2, was: 'tap: System Update', now: 'tap: Software Update' }],
        from: 'running',
      });
      expect(await store.get('t1')).toEqual({
        ...task('t1', { createdAt: '2026-01-01T00:00:00.000Z' }),
        status: 'succeeded',
        startedAt: '2026-01-01T00:00:01.000Z',
        finishedAt: '2026-01-01T00:00:02.000Z',
        result: 'Opened Settings.',
        usage: { inputTokens: 10, outputTokens: 3 },
        suggestedPatch: [{ step: 2, was: 'tap: System Update', now: 'tap: Software Update' }],
        steps: [step(0), { ...step(1), outcome: { status: 'error', detail: 'no such element', code: 'element_not_found' } }],
      });
      expect((await store.list()).map((t) => [t.id, t.stepCount])).toEqual([
        ['t2', 0],
        ['t1', 2],
      ]);
      expect((await store.list({ status: 'queued' })).map((t) => t.id)).toEqual(['t2']);
      expect((await store.list({ deviceId: 'phone-a' })).map((t) => t.id)).toEqual(['t1']);
      expect((await store.queued()).map((t) => t.id)).toEqual(['t2']);
      expect((await store.ownQueued()).map((t) => t.id)).toEqual(['t2']);
      expect(await open('other').ownQueued()).toEqual([]);
      expect(await store.get('nope')).toBeUndefined();
    });

    it("keeps a question's structured answer, also for a process that opens the store later", async () => {
      const store = open('me');
      await store.renewLease();
      await store.insert(task('q1'));
      await store.update('q1', { status: 'succeeded', result: 'Yes: Wi-Fi is on.', answer: { subject: 'Wi-Fi', value: true, source: 'screen' } });
      const other = open('other');
      expect(await other.get('q1')).toMatchObject({ result: 'Yes: Wi-Fi is on.', answer: { subject: 'Wi-Fi', value: true, source: 'screen' } });
      expect((await other.list({}))[0]).toMatchObject({ id: 'q1', answer: { value: true } });
    });

    it('applies a patch guarded by `from` only while the task is in that status', async () => {
      const store = open('me');
      await store.renewLease();
      await store.insert(task('t1'));
      await store.update('t1', { status: 'cancelled', finishedAt: '2026-01-01T00:00:01.000Z', from: 'running' });
      expect((await store.get('t1'))?.status).toBe('queued');
      await store.update('t1', { status: 'cancelled', finishedAt: '2026-01-01T00:00:01.000Z', from: 'queued' });
      expect((await store.get('t1'))?.status).toBe('cancelled');
    });

    it("a cancel asked through one process's store is seen through another's", async () => {
      const mine = open('me');
      const other = open('other');
      await mine.renewLease();
      await mine.insert(task('t1'));
      await mine.startRun('t1', '2026-01-01T00:00:01.000Z');
      expect(await mine.isCancelRequested('t1')).toBe(false);
      await other.requestCancel('t1');
      expect(await mine.isCancelRequested('t1')).toBe(true);
    });

    it("leaves a live process's tasks alone, and recovers them the moment its lease runs out", async () => {
      const theirs = open('theirs');
      const mine = open('me');
      await theirs.renewLease();
      await mine.renewLease();
      await theirs.insert(task('stepped'));
      await theirs.insert(task('unstarted'));
      await theirs.insert(task('waiting'));
      await theirs.startRun('stepped', '2026-01-01T00:00:00.500Z');
      await theirs.startRun('unstarted', '2026-01-01T00:00:00.500Z');
      await theirs.appendStep('stepped', step(0));
      for (let i = 0; i < 4; i += 1) {
        clock += 900;
        await theirs.renewLease();
        await mine.renewLease();
        expect(await mine.failInterrupted(new Date(clock).toISOString())).toEqual([]);
        expect(await mine.adoptQueued()).toEqual([]);
        // Only the owner starts its queued tasks.
        expect(await mine.startRun('waiting', new Date(clock).toISOString())).toBe(false);
      }
      expect(await mine.nextLeaseExpiry()).toBe(clock + LEASE.leaseMs);
      // They stop renewing: a moment before the end nothing changes, at the end everything does.
      clock += LEASE.leaseMs - 1;
      await mine.renewLease();
      expect(await mine.failInterrupted(new Date(clock).toISOString())).toEqual([]);
      clock += 1;
      const failed = await mine.failInterrupted(new Date(clock).toISOString());
      expect(await mine.get('stepped')).toMatchObject({ status: 'failed', error: { reason: 'interrupted' }, steps: [step(0)] });
      if (backend().requeuesUnstarted) {
        expect(failed).toEqual(['stepped']);
        expect(await mine.get('unstarted')).toMatchObject({ status: 'queued', steps: [] });
        expect((await mine.get('unstarted'))?.startedAt).toBeUndefined();
      } else {
        expect(failed.sort()).toEqual(['stepped', 'unstarted']);
      }
      const adopted = (await mine.adoptQueued()).map((t) => t.id);
      expect(adopted).toEqual(backend().requeuesUnstarted ? ['unstarted', 'waiting'] : ['waiting']);
      expect(await mine.startRun('waiting', new Date(clock).toISOString())).toBe(true);
      // Recovered once: a second look finds nothing.
      expect(await mine.failInterrupted(new Date(clock).toISOString())).toEqual([]);
      expect(await mine.adoptQueued()).toEqual([]);
    });

    it('treats a task whose owner released its lease as orphaned at once', async () => {
      const gone = open('released');
      await gone.renewLease();
      await gone.insert(task('left-queued'));
      await gone.releaseLease();
      const mine = open('me');
      await mine.renewLease();
      expect((await mine.adoptQueued()).map((t) => t.id)).toEqual(['left-queued']);
    });

    it('deletes finished tasks past their retention, never an unfinished one, in bounded batches', async () => {
      const store = open('me');
      await store.renewLease();
      for (const [id, finishedAt] of [
        ['old', '2026-01-01T00:00:01.000Z'],
        ['mid', '2026-01-02T00:00:01.000Z'],
        ['new', '2026-01-03T00:00:01.000Z'],
      ] as const) {
        await store.insert(task(id));
        await store.update(id, { status: 'succeeded', finishedAt });
      }
      await store.insert(task('queued'));
      expect(await store.pruneFinished({ finishedBefore: '2026-01-01T12:00:00.000Z', keepNewest: 10, limit: 10 })).toEqual(['old']);
      expect(await store.pruneFinished({ finishedBefore: '2000-01-01T00:00:00.000Z', keepNewest: 0, limit: 1 })).toEqual(['mid']);
      expect((await store.list()).map((t) => t.id)).toEqual(['queued', 'new']);
    });
  });
}

describe('task stores', () => {
  describe('SQLite', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'apex-store-contract-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    storeContract('SQLite', () => ({
      open: (id) => new SqliteTaskStore(dir, { lease: { ...LEASE, instance: instance(id) } }),
      requeuesUnstarted: false,
    }));
  });

  describe('PostgreSQL', () => {
    let server: TestPostgres;
    let db: PostgresDatabase;
    beforeAll(async () => {
      server = await startTestPostgres();
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      db = await PostgresDatabase.open({ url: await server.createDatabase() });
    });
    afterEach(async () => {
      await db.close();
    });
    storeContract('PostgreSQL', () => ({
      open: (id) => new PostgresTaskStore(db, { lease: { ...LEASE, instance: instance(id) } }),
      requeuesUnstarted: true,
    }));

    describe('as the queue of a cluster', () => {
      const lease = (id: string) => ({ ...LEASE, instance: instance(id) });
      const device = { deviceId: 'phone-b', name: 'Phone B', platform: 'ios' };

      it('routes a task to the node that holds its device, whichever node it was posted to', async () => {
        const a = new PostgresTaskStore(db, { lease: lease('node-a') });
        const b = new PostgresTaskStore(db, { lease: lease('node-b') });
        await a.renewLease();
        await b.renewLease();
        expect(await new PostgresDeviceLeases(db, lease('node-b')).claim(device)).toEqual({ held: true });
        expect([await a.runsHere('phone-b'), await b.runsHere('phone-b'), await a.runsHere('phone-shared')]).toEqual([false, true, true]);
        expect(await a.insert(task('for-b', { deviceId: 'phone-b' }))).toBe(false);
        expect(await a.adoptQueued()).toEqual([]);
        expect(await a.startRun('for-b', new Date(clock).toISOString())).toBe(false);
        expect((await b.adoptQueued()).map((t) => t.id)).toEqual(['for-b']);
        expect(await b.startRun('for-b', new Date(clock).toISOString())).toBe(true);
        // Posted on the holder itself: claimed at once. A device no node holds: run where posted.
        expect(await b.insert(task('on-b', { deviceId: 'phone-b' }))).toBe(true);
        expect(await a.insert(task('shared', { deviceId: 'phone-shared' }))).toBe(true);
        // b's hold lapses (say the database was away longer than a lease): the phone is still not a's.
        clock += LEASE.leaseMs;
        expect(await a.insert(task('after-lapse', { deviceId: 'phone-b' }))).toBe(false);
      });

      it("keeps a device's queue limit over every node: counted with the insert, so concurrent posts never pass it", async () => {
        const [a, b, c] = ['node-a', 'node-b', 'node-c'].map((id) => new PostgresTaskStore(db, { lease: lease(id) }));
        for (const store of [a, b, c]) await store.renewLease();
        expect(await new PostgresDeviceLeases(db, lease('node-c')).claim(device)).toEqual({ held: true });
        const posts = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).insert(task(`q${i}`, { deviceId: 'phone-b' }), { maxQueued: 3 }));
        const answers = await Promise.all(posts);
        expect(answers.filter((answer) => answer === 'full')).toHaveLength(5);
        expect(answers.filter((answer) => answer === false)).toHaveLength(3);
        expect((await c.queued()).filter((t) => t.deviceId === 'phone-b')).toHaveLength(3);
        // A task that leaves the queue makes room; other devices are counted apart.
        const first = (await c.adoptQueued())[0];
        await c.startRun(first.id, new Date(clock).toISOString());
        expect(await a.insert(task('q-next', { deviceId: 'phone-b' }), { maxQueued: 3 })).toBe(false);
        expect(await a.insert(task('q-full', { deviceId: 'phone-b' }), { maxQueued: 3 })).toBe('full');
        expect(await a.insert(task('other', { deviceId: 'phone-other' }), { maxQueued: 3 })).toBe(true);
        expect(await a.get('q-full')).toBeUndefined();
      });

      it('fences a node that lost its task: no step recorded, no end written, and it is told to stop', async () => {
        const a = new PostgresTaskStore(db, { lease: lease('node-a') });
        const b = new PostgresTaskStore(db, { lease: lease('node-b') });
        await a.renewLease();
        await b.renewLease();
        await b.insert(task('t1'));
        await b.startRun('t1', new Date(clock).toISOString());
        await b.appendStep('t1', step(0));
        // b pauses past its lease; a recovers the task.
        clock += LEASE.leaseMs;
        await a.renewLease();
        expect(await a.failInterrupted(new Date(clock).toISOString())).toEqual(['t1']);
        expect(await b.isCancelRequested('t1')).toBe(true);
        await b.appendStep('t1', step(1));
        await b.update('t1', { status: 'succeeded', finishedAt: new Date(clock).toISOString(), result: 'done', from: 'running' });
        expect(await a.get('t1')).toMatchObject({ status: 'failed', error: { reason: 'interrupted' }, steps: [step(0)] });
      });

      it('keeps device leases: one holder at a time, taken over when the hold runs out, free at once when released', async () => {
        const a = new PostgresDeviceLeases(db, lease('node-a'));
        const b = new PostgresDeviceLeases(db, lease('node-b'));
        expect(await a.claim(device)).toEqual({ held: true });
        expect(await b.claim(device)).toMatchObject({ held: false, holder: { pid: process.pid, expiresAt: clock + LEASE.leaseMs } });
        expect((await b.heldElsewhere()).map((d) => [d.deviceId, d.name, d.platform])).toEqual([['phone-b', 'Phone B', 'ios']]);
        expect(await a.heldElsewhere()).toEqual([]);
        // The state a holder reports with a renewal is what the others read; a claim that does not hold reports nothing.
        expect((await b.heldElsewhere())[0].report).toBeUndefined();
        expect(await a.claim(device, 'offline')).toEqual({ held: true });
        expect((await b.claim(device, 'online')).held).toBe(false);
        expect((await b.heldElsewhere())[0].report).toEqual({ state: 'offline', at: clock });
        clock += LEASE.leaseMs - 1;
        expect((await b.claim(device)).held).toBe(false);
        clock += 1;
        expect(await b.claim(device)).toEqual({ held: true });
        expect((await a.claim(device)).held).toBe(false);
        await b.release('phone-b');
        expect(await a.claim(device)).toEqual({ held: true });
      });

      it('keeps step images in the database under the retention limit, for every node to serve', async () => {
        const store = new PostgresTaskStore(db, { lease: lease('node-a') });
        await store.insert(task('t1'));
        const images = new PostgresStepImages(db, { perTask: 2, maxTotalBytes: 1_000 });
        expect(await images.save('t1', 'step-000.jpg', Buffer.alloc(10, 1))).toEqual([]);
        expect(await images.save('t1', 'step-001.jpg', Buffer.alloc(10, 2))).toEqual([]);
        expect(await images.save('t1', 'step-002.jpg', Buffer.alloc(10, 3))).toEqual([{ taskId: 't1', ref: 'step-000.jpg' }]);
        expect(await new PostgresStepImages(db).read('t1', 'step-002.jpg')).toEqual(Buffer.alloc(10, 3));
        expect(await images.read('t1', 'step-000.jpg')).toBeUndefined();
        expect(await images.save('t1', 'step-003.jpg', Buffer.alloc(995, 4))).toEqual([
          { taskId: 't1', ref: 'step-001.jpg' },
          { taskId: 't1', ref: 'step-002.jpg' },
        ]);
        await images.removeTask('t1');
        expect(await images.read('t1', 'step-003.jpg')).toBeUndefined();
      });

      it('keeps recordings in the database in chunks, byte for byte, the oldest removed beyond the limit', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'apex-recordings-'));
        try {
          const recordings = new PostgresRecordings(db);
          // Two and a half chunks of bytes that differ from chunk to chunk.
          const video = Buffer.from(Array.from({ length: Math.round(RECORDING_CHUNK_BYTES * 2.5) }, (_, i) => (i * 31 + (i >> 20)) % 251));
          writeFileSync(join(dir, 'a.mp4'), video);
          await recordings.put({ id: 'rec-a', bytes: video.length }, join(dir, 'a.mp4'), 10 * RECORDING_CHUNK_BYTES);
          const chunks = await db.query<{ n: string }>("SELECT COUNT(*) AS n FROM apex_recording_chunks WHERE recording_id = 'rec-a'");
          expect(Number(chunks.rows[0].n)).toBe(3);
          expect(await new PostgresRecordings(db).get('rec-a', join(dir, 'copy.mp4'))).toEqual({ id: 'rec-a', bytes: video.length });
          expect(readFileSync(join(dir, 'copy.mp4')).equals(video)).toBe(true);
          expect(await recordings.get('rec-none', join(dir, 'none.mp4'))).toBeUndefined();
          // A newer one that leaves no room for both: the older goes, with its chunks.
          writeFileSync(join(dir, 'b.mp4'), video.subarray(0, RECORDING_CHUNK_BYTES * 2));
          await recordings.put({ id: 'rec-b', bytes: RECORDING_CHUNK_BYTES * 2 }, join(dir, 'b.mp4'), 4 * RECORDING_CHUNK_BYTES);
          expect(await recordings.get('rec-a', join(dir, 'gone.mp4'))).toBeUndefined();
          expect((await db.query("SELECT 1 FROM apex_recording_chunks WHERE recording_id = 'rec-a'")).rows).toEqual([]);
          expect(await recordings.get('rec-b', join(dir, 'b-copy.mp4'))).toMatchObject({ id: 'rec-b' });
          expect(readFileSync(join(dir, 'b-copy.mp4')).equals(video.subarray(0, RECORDING_CHUNK_BYTES * 2))).toBe(true);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('migrates once: a second node opening the database finds the schema in place', async () => {
        const url = await server.createDatabase();
        const [first, second] = await Promise.all([PostgresDatabase.open({ url }), PostgresDatabase.open({ url })]);
        try {
          expect((await first.query<{ version: number }>('SELECT version FROM apex_migrations ORDER BY version')).rows).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
        } finally {
          await first.close();
          await second.close();
        }
      });

      it('answers `unavailable` when the database cannot be reached, and stores nothing', async () => {
        const down = await startTestPostgres();
        const url = await down.createDatabase();
        const unreachable = await PostgresDatabase.open({ url, connectTimeoutMs: 1_000 });
        try {
          await down.stop();
          const store = new PostgresTaskStore(unreachable, { lease: lease('node-a') });
          await expect(store.insert(task('t1'))).rejects.toMatchObject({ code: 'unavailable', retryable: true });
          await down.start();
          // Back: the same pool reconnects, and the refused task was never stored.
          expect(await store.get('t1')).toBeUndefined();
          expect(await store.insert(task('t2'))).toBe(true);
        } finally {
          await unreachable.close();
          await down.close();
        }
      });
    });
  });
});

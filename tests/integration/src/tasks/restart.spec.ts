import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { SqliteTaskStore, type Task } from '@apex/tasks';
import { endStateProblems } from '@apex/tasks/testing';
import { startTaskStack, until } from './support';

type ChildEvent =
  | { event: 'pid'; pid: number }
  | { event: 'finished'; taskId: string }
  | { event: 'queued'; slow: string; waiting: string }
  | { event: 'mid-task'; taskId: string; steps: number };

/** The task lease of both processes: short, so that a dead owner's lease runs out quickly. */
const LEASE = { leaseMs: 2_000, renewMs: 500 };

/**
 * Starts kill-child.ts in its own Node process and collects its JSON-line events. With `unreaped`, the child
 * is started through a shell that then becomes `sleep`, which never waits for it: once killed, the child
 * stays a zombie whose pid still answers `kill(pid, 0)`.
 */
function startChild(dataDir: string, options: { unreaped?: boolean } = {}) {
  // tsx's loader by absolute URL: the child runs in a temp cwd so it can write nothing into the repo.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const command = [process.execPath, '--import', tsx, join(__dirname, 'kill-child.ts'), dataDir, String(LEASE.leaseMs)];
  const child: ChildProcess = options.unreaped
    ? spawn('/bin/sh', ['-c', '"$@" & echo "{\\"event\\":\\"pid\\",\\"pid\\":$!}"; exec sleep 600', 'sh', ...command], {
        cwd: tmpdir(),
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(command[0], command.slice(1), { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
  const events: ChildEvent[] = [];
  const waiters: Array<() => void> = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (!child.stdout) throw new Error('the child has no stdout');
  createInterface({ input: child.stdout }).on('line', (line) => {
    events.push(JSON.parse(line) as ChildEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    child,
    async next<E extends ChildEvent['event']>(event: E): Promise<Extract<ChildEvent, { event: E }>> {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const found = events.find((e) => e.event === event);
        if (found) return found as Extract<ChildEvent, { event: E }>;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the child never said "${event}" (exit ${child.exitCode}): ${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

/** The process state letter from /proc (Linux): 'Z' for a zombie. */
function stateOf(pid: number): string | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  return /\) (\S)/.exec(readFileSync(stat, 'utf8'))?.[1];
}

function looksAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('tasks survive a SIGKILL of the process running them', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'apex-tasks-kill-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A new process (here: this one) with its own virtual iPhone of the same id opens the same data dir. */
  async function recoverAndCheck(queued: { slow: string; waiting: string }, midSteps: number, finishedId: string): Promise<void> {
    const stack = await startTaskStack({ dataDir, service: { lease: LEASE } });
    try {
      let slow: Task | undefined;
      await until(async () => (slow = (await stack.tasks.get(queued.slow))).status !== 'running', 'the interrupted task to be failed', 30_000);
      expect(slow?.status).toBe('failed');
      expect(slow?.error?.reason).toBe('interrupted');
      expect(slow?.steps.length).toBeGreaterThanOrEqual(midSteps);
      expect(slow?.steps.slice(0, 2).map((s) => s.action.operation)).toEqual(['tap', 'tap']);
      const done = (await stack.tasks.get(finishedId));
      expect(done.status).toBe('succeeded');
      expect(done.steps.length).toBeGreaterThan(0);
      const resumed = await stack.tasks.whenSettled(queued.waiting);
      expect(resumed.status).toBe('succeeded');
      expect(endStateProblems(stack.endState(), { status: 'succeeded', switches: { 'Airplane Mode': true } })).toEqual([]);
      expect((await stack.tasks.list()).map((t) => t.id).sort()).toEqual([finishedId, queued.slow, queued.waiting].sort());
    } finally {
      await stack.close();
    }
  }

  it('marks the running task failed (interrupted), keeps its steps and the finished task, and runs the queued one', async () => {
    const { child, next } = startChild(dataDir);
    const finished = await next('finished');
    const queued = await next('queued');
    const mid = await next('mid-task');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    expect(await exited).toBe(null);

    // What the dead process left on disk, before anyone recovers it.
    const raw = new SqliteTaskStore(dataDir);
    expect((await raw.get(queued.slow))?.status).toBe('running');
    expect((await raw.get(queued.waiting))?.status).toBe('queued');
    (await raw.close());

    await recoverAndCheck(queued, mid.steps, finished.taskId);
  }, 180_000);

  it('does the same when the killed process is still a zombie whose pid looks alive', async () => {
    const { child, next } = startChild(dataDir, { unreaped: true });
    try {
      const { pid } = await next('pid');
      const finished = await next('finished');
      const queued = await next('queued');
      const mid = await next('mid-task');
      process.kill(pid, 'SIGKILL');
      await until(async () => stateOf(pid) === 'Z', 'the killed child to become a zombie', 30_000);
      expect(looksAlive(pid)).toBe(true);

      await recoverAndCheck(queued, mid.steps, finished.taskId);
      expect(stateOf(pid)).toBe('Z');
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);

  it('does the same when the dead owner had the pid of a live process (a restarted container gets pid 1 again)', async () => {
    // What a process with this very pid left behind: a lease whose heartbeat stopped a minute ago.
    const then = Date.now() - 60_000;
    const before = new SqliteTaskStore(dataDir, {
      lease: { ...LEASE, instance: { id: 'before-restart', pid: process.pid, host: hostname(), since: new Date(then).toISOString() }, now: () => then },
    });
    (await before.renewLease());
    const base = { deviceId: 'iphone-virtual', planner: 'offline', maxSteps: 20, timeoutMs: 60_000, createdAt: new Date(then).toISOString(), steps: [] };
    (await before.insert({ ...base, id: 'was-running', goal: 'open Settings', status: 'queued' }));
    expect((await before.startRun('was-running', new Date(then).toISOString()))).toBe(true);
    (await before.insert({ ...base, id: 'was-queued', goal: 'turn on Airplane Mode', status: 'queued' }));
    (await before.close());

    const stack = await startTaskStack({ dataDir, service: { lease: LEASE } });
    try {
      expect((await stack.tasks.get('was-running'))).toMatchObject({ status: 'failed', error: { reason: 'interrupted' } });
      expect((await stack.tasks.whenSettled('was-queued')).status).toBe('succeeded');
    } finally {
      await stack.close();
    }
  }, 120_000);
});

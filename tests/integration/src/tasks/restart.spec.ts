import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { SqliteTaskStore } from '@apex/tasks';
import { endStateProblems } from '@apex/tasks/testing';
import { startTaskStack } from './support';

type ChildEvent = { event: 'finished'; taskId: string } | { event: 'queued'; slow: string; waiting: string } | { event: 'mid-task'; taskId: string; steps: number };

/** Starts kill-child.ts in its own Node process and collects its JSON-line events. */
function startChild(dataDir: string): { child: ChildProcess; next(event: ChildEvent['event']): Promise<ChildEvent> } {
  // tsx's loader by absolute URL: the child runs in a temp cwd so it can write nothing into the repo.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(__dirname, 'kill-child.ts'), dataDir], {
    cwd: tmpdir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    async next(event) {
      const deadline = Date.now() + 90_000;
      for (;;) {
        const found = events.find((e) => e.event === event);
        if (found) return found;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the child never said "${event}" (exit ${child.exitCode}): ${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}

describe('tasks survive a SIGKILL of the process running them', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'apex-tasks-kill-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('marks the running task failed (interrupted), keeps its steps and the finished task, and runs the queued one', async () => {
    const { child, next } = startChild(dataDir);
    const finished = (await next('finished')) as Extract<ChildEvent, { event: 'finished' }>;
    const queued = (await next('queued')) as Extract<ChildEvent, { event: 'queued' }>;
    const mid = (await next('mid-task')) as Extract<ChildEvent, { event: 'mid-task' }>;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    expect(await exited).toBe(null);

    // What the dead process left on disk, before anyone recovers it.
    const raw = new SqliteTaskStore(dataDir);
    expect(raw.get(queued.slow)?.status).toBe('running');
    expect(raw.get(queued.waiting)?.status).toBe('queued');
    raw.close();

    // A new process (here: this one) with its own virtual iPhone of the same id opens the same data dir.
    const stack = await startTaskStack({ dataDir });
    try {
      const slow = stack.tasks.get(queued.slow);
      expect(slow.status).toBe('failed');
      expect(slow.error?.reason).toBe('interrupted');
      expect(slow.steps.length).toBeGreaterThanOrEqual(mid.steps);
      expect(slow.steps.slice(0, 2).map((s) => s.action.operation)).toEqual(['tap', 'tap']);
      const done = stack.tasks.get(finished.taskId);
      expect(done.status).toBe('succeeded');
      expect(done.steps.length).toBeGreaterThan(0);
      const resumed = await stack.tasks.whenSettled(queued.waiting);
      expect(resumed.status).toBe('succeeded');
      expect(endStateProblems(stack.endState(), { status: 'succeeded', switches: { 'Airplane Mode': true } })).toEqual([]);
      expect(stack.tasks.list().map((t) => t.id).sort()).toEqual([finished.taskId, queued.slow, queued.waiting].sort());
    } finally {
      await stack.close();
    }
  }, 180_000);
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockFileFor } from '@apex/runtime';
import { SqliteTaskStore } from '@apex/tasks';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';
import { connectOutcome, requestJson, spawnApex, writeConfig, type SpawnedApex } from './spawned';

/** Far more work than a shutdown takes: the task is still running when the signal comes. */
const LONG_GOAL = Array.from({ length: 30 }, () => 'open Settings, go home').join(', ');

describe('apex serve shuts down gracefully (spawned)', () => {
  let dir: string;
  let taskPhone: VirtualIPhone;
  let slowPhone: VirtualIPhone;
  /** In front of the slow phone: holds its taps, so a request is in flight for as long as the test wants. */
  let proxy: RecordingProxy;
  let config: string;
  const runs: SpawnedApex[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-shutdown-it-'));
    [taskPhone, slowPhone] = await Promise.all([startVirtualIPhone(), startVirtualIPhone()]);
    proxy = await new RecordingProxy(slowPhone.url).start();
    config = writeConfig(dir, { 'task-phone': taskPhone.url, 'slow-phone': proxy.url });
  });

  afterEach(() => {
    proxy.release();
    taskPhone.faults.reset();
  });

  afterAll(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGKILL');
        await run.exited;
      }
      rmSync(run.dataDir, { recursive: true, force: true });
    }
    await proxy.close();
    await Promise.all([taskPhone.close(), slowPhone.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** `apex serve` over both phones, with a tap on the slow phone in flight (held at the phone). */
  async function serveWithATapInFlight(): Promise<{ run: SpawnedApex; url: string; tap: Promise<number | Error> }> {
    const run = spawnApex(['serve', '--port', '0', '--config', config]);
    runs.push(run);
    const [, url] = await run.stdoutLine(/REST API\s+(http:\/\/127\.0\.0\.1:\d+)/);
    proxy.hold((request) => request.path.endsWith('/wda/tap'));
    // Settles either way, so that no rejection goes unobserved while the test waits for other things.
    const tap = requestJson(url, 'POST', '/devices/slow-phone/tap', { x: 20, y: 20 }).then(
      (answer) => answer.status,
      (error: Error) => error,
    );
    await eventually(async () => proxy.heldCount === 1, { timeoutMs: 30_000, what: 'the tap to reach the phone' });
    return { run, url, tap };
  }

  it('on SIGTERM stops accepting, finishes the request in flight, ends the running task interrupted, releases the devices and exits 0', async () => {
    const { run, url, tap } = await serveWithATapInFlight();
    taskPhone.faults.setLatency(30);
    const started = await requestJson(url, 'POST', '/agent/task', { deviceId: 'task-phone', goal: LONG_GOAL, maxSteps: 100 });
    expect(started.status).toBe(202);
    const taskId = started.body['taskId'] as string;
    await eventually(
      async () => ((await requestJson(url, 'GET', `/task/${taskId}`)).body['steps'] as unknown[]).length >= 1,
      { timeoutMs: 30_000, what: 'the task to take a step' },
    );

    run.child.kill('SIGTERM');
    await run.stdoutLine(/Received SIGTERM; shutting down/);
    expect(await connectOutcome(url)).toBe('ECONNREFUSED');
    expect(run.child.exitCode).toBeNull();

    proxy.release();
    expect(await tap).toBe(200);
    expect(await run.exited).toEqual({ code: 0, signal: null });

    const store = new SqliteTaskStore(run.dataDir);
    try {
      const task = (await store.get(taskId));
      expect(task).toMatchObject({ status: 'failed', error: { reason: 'interrupted', code: 'internal' } });
      expect(task?.error?.message).toMatch(/Apex is shutting down/);
      expect(task?.steps.length).toBeGreaterThanOrEqual(1);
    } finally {
      (await store.close());
    }
    expect(existsSync(lockFileFor(run.dataDir, taskPhone.url))).toBe(false);
    expect(existsSync(lockFileFor(run.dataDir, proxy.url))).toBe(false);
  });

  it('exits at once on a second signal, without waiting for the request in flight (130 for SIGINT)', async () => {
    const { run, tap } = await serveWithATapInFlight();
    run.child.kill('SIGINT');
    await run.stdoutLine(/Received SIGINT; shutting down/);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    // The tap is still held at the phone: the process did not wait for it.
    expect(proxy.heldCount).toBe(1);
    expect(String(await tap)).toMatch(/socket hang up|ECONNRESET/);
    expect(run.stderr()).toMatch(/Received SIGINT again; exiting now/);
  });
});

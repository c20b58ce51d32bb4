import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

/** The configuration's `tasks` settings reach the task service the runtime builds. */
describe('tasks.keepTypedText, tasks.maxQueuedPerDevice and tasks.retention from the configuration', () => {
  let dir: string;
  let phone: VirtualIPhone;
  let runtime: Runtime;
  let api: RestApiHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apex-task-config-it-'));
    phone = await startVirtualIPhone();
    const configPath = join(dir, 'apex.json');
    writeFileSync(
      configPath,
      JSON.stringify({ devices: [{ id: 'phone-1', driver: 'wda', url: phone.url, shared: true }], tasks: { keepTypedText: true, maxQueuedPerDevice: 1, retention: { maxFinished: 1 } } }),
    );
    runtime = await createRuntime({ configPath, env: {}, dataDir: join(dir, 'data'), logger: createLogger({ level: 'silent' }) });
    api = await startRestApi(runtime, { port: 0, mcp: false, logger: createRestLogger({ level: 'silent' }) });
  });

  afterAll(async () => {
    await api?.close();
    await runtime?.close();
    await phone?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers device_busy (409, retryable) naming the limit once a device has that many queued, and keeps typed text as told', async () => {
    const post = (goal: string) =>
      fetch(`${api.url}/agent/task`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ goal }) }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }),
      );
    // The first task runs (held by a slow phone), the second waits: the queue is full.
    phone.faults.setLatency(60_000);
    const running = await post('type hunter2 in Notes');
    const queued = await post('go home');
    const refused = await post('go home');
    expect([running.status, queued.status]).toEqual([202, 202]);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'device_busy', retryable: true });
    expect(refused.body['detail']).toBe('Device phone-1 already has 1 queued tasks, the most it takes.');
    phone.faults.reset();

    const done = await runtime.tasks.whenSettled(running.body['taskId'] as string);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((s) => s.action.operation === 'input_text')?.action.arguments).toEqual({ text: 'hunter2' });
    expect((await runtime.tasks.whenSettled(queued.body['taskId'] as string)).status).toBe('succeeded');
    // retention.maxFinished 1: the task that finished first is gone.
    expect((await runtime.tasks.list()).map((t) => t.id)).toEqual([queued.body['taskId']]);
    expect((await fetch(`${api.url}/task/${running.body['taskId'] as string}`)).status).toBe(404);
  });
});

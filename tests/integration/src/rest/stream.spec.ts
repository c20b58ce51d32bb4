import sharp from 'sharp';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { createRestLogger, createRestServer } from '@apex/rest';
import { eventually } from '@apex/testing';
import { startVirtualIPhone } from '@apex/virtual-device';
import { call, DEVICE, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';
import { StreamClient } from './stream-client';

const WAIT = { timeoutMs: 30_000 };

async function expectJpeg(frame: Buffer): Promise<{ width?: number }> {
  const meta = await sharp(frame).metadata();
  expect(meta.format).toBe('jpeg');
  return meta;
}

describe('GET /devices/{id}/stream and GET /task/{id}/steps/{n}/screenshot', () => {
  let h: RestHarness;
  const phone = () => h.runtime.embedded as NonNullable<RestHarness['runtime']['embedded']>;

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("relays the embedded phone's own MJPEG stream; frames change after a tap; disconnecting releases the phone's stream", async () => {
    await call(h.url, 'POST', `${DEVICE_PATH}/press-button`, { body: { button: 'home' } });
    const client = await StreamClient.open(`${h.url}${DEVICE_PATH}/stream`);
    expect(client.response.statusCode).toBe(200);
    expect(client.response.headers['content-type']).toBe('multipart/x-mixed-replace; boundary=apex-frame');
    expect(client.response.headers['x-frame-source']).toBe('device');
    await eventually(() => client.frames.length >= 2, { ...WAIT, what: 'two frames' });
    const meta = await expectJpeg(client.frames[0]);
    // The device's own frames: native pixels.
    expect(meta.width).toBe(phone().phone.profile.width * phone().phone.profile.scale);
    expect(phone().streamViewers()).toBe(1);

    const before = client.frames.at(-1) as Buffer;
    const seen = client.frames.length;
    const found = await call(h.url, 'POST', `${DEVICE_PATH}/find-text`, { body: { text: 'Settings', exact: true } });
    const center = (found.body['matches'] as Array<{ center: { x: number; y: number } }>)[0].center;
    const tapped = await call(h.url, 'POST', `${DEVICE_PATH}/tap`, { body: center });
    expect(tapped.status).toBe(200);
    await eventually(() => phone().phone.activeApp().bundleId === 'com.apple.Preferences', { ...WAIT, what: 'Settings open' });
    await expectJpeg(await client.changedFrame(before, seen));

    client.close();
    await eventually(() => phone().streamViewers() === 0, { ...WAIT, what: "the phone's stream released" });
  });

  it('answers an unknown device with the usual 404 problem', async () => {
    const answer = await call(h.url, 'GET', '/devices/iphone-nope/stream');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ code: 'device_not_found', status: 404 });
    expect((await call(h.url, 'POST', `${DEVICE_PATH}/stream`)).status).toBe(405);
  });

  it('serves the screenshot of each step of a finished task, and 404/400 problems for what is not there', async () => {
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal: 'turn on Airplane Mode', device: DEVICE, planner: 'offline', maxSteps: 10 } });
    expect(started.status).toBe(202);
    const taskId = started.body['taskId'] as string;
    const task = await eventually(
      async () => {
        const answer = await call(h.url, 'GET', `/task/${taskId}`);
        return ['succeeded', 'failed', 'cancelled'].includes(String(answer.body['status'])) ? answer.body : undefined;
      },
      { timeoutMs: 60_000, what: 'the task to finish' },
    ) as Record<string, unknown>;
    expect(task['status']).toBe('succeeded');
    const steps = task['steps'] as Array<{ index: number; screenshotRef?: string }>;
    const shot = steps.find((step) => step.screenshotRef);
    expect(shot).toBeDefined();
    const n = (shot?.index ?? 0) + 1;

    const image = await fetch(`${h.url}/task/${taskId}/steps/${n}/screenshot`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    await expectJpeg(Buffer.from(await image.arrayBuffer()));

    for (const [path, status, code] of [
      [`/task/${taskId}/steps/${steps.length + 1}/screenshot`, 404, 'task_not_found'],
      ['/task/no-such-task/steps/1/screenshot', 404, 'task_not_found'],
      [`/task/${encodeURIComponent('../../etc/passwd')}/steps/1/screenshot`, 400, 'invalid_argument'],
      [`/task/${taskId}/steps/0/screenshot`, 400, 'invalid_argument'],
      [`/task/${taskId}/steps/..%2F1/screenshot`, 400, 'invalid_argument'],
      [`/task/${taskId}/steps/abc/screenshot`, 400, 'invalid_argument'],
    ] as const) {
      const answer = await call(h.url, 'GET', path);
      expect([path, answer.status, answer.body['code']]).toEqual([path, status, code]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  }, 120_000);

  it('documents both routes in the OpenAPI document', async () => {
    const doc = (await call(h.url, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/devices/{id}/stream']['get'].operationId).toBe('stream_screen');
    expect(doc.paths['/task/{id}/steps/{n}/screenshot']['get'].operationId).toBe('get_step_screenshot');
    const page = await (await fetch(`${h.url}/docs`)).text();
    expect(page).toContain('GET /devices/{id}/stream');
    expect(page).toContain('GET /task/{id}/steps/{n}/screenshot');
  });

  it('ends open streams when the server shuts down, without waiting out the drain time', async () => {
    const other = await startRestHarness();
    const client = await StreamClient.open(`${other.url}${DEVICE_PATH}/stream`);
    await eventually(() => client.frames.length >= 1, { ...WAIT, what: 'a frame' });
    // A drain longer than the test's own limit: only ending the stream lets close() finish.
    await other.api.close({ drainMs: 600_000 });
    await eventually(() => client.ended, { ...WAIT, what: 'the stream to end' });
    await other.runtime.close();
  });
});

describe('GET /devices/{id}/stream with a token', () => {
  it('requires the bearer token like every route', async () => {
    const h = await startRestHarness({ token: 'stream-token-123' });
    try {
      const refused = await call(h.url, 'GET', `${DEVICE_PATH}/stream`);
      expect(refused.status).toBe(401);
      expect(refused.body['code']).toBe('unauthorized');
      const client = await StreamClient.open(`${h.url}${DEVICE_PATH}/stream`, { Authorization: 'Bearer stream-token-123' });
      expect(client.response.statusCode).toBe(200);
      await eventually(() => client.frames.length >= 1, { ...WAIT, what: 'a frame' });
      client.close();
    } finally {
      await h.close();
    }
  });
});

describe('GET /devices/{id}/stream for a device without a stream of its own', () => {
  it('pushes screenshots when the screen changes (JPEG, one pixel per point), through the real driver', async () => {
    const iphone = await startVirtualIPhone({ port: 0 });
    const hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: DEVICE, driver: createWdaDriver({ deviceId: DEVICE, url: iphone.url }) });
    const perception = new Perception(hub);
    const rest = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    const { url } = await rest.listen(0);
    try {
      const client = await StreamClient.open(`${url}${DEVICE_PATH}/stream`);
      expect(client.response.statusCode).toBe(200);
      expect(client.response.headers['x-frame-source']).toBe('screenshots');
      await eventually(() => client.frames.length >= 1, { ...WAIT, what: 'the first frame' });
      expect((await expectJpeg(client.frames[0])).width).toBe(iphone.phone.profile.width);
      const before = client.frames.at(-1) as Buffer;
      const seen = client.frames.length;
      const launched = await fetch(`${url}${DEVICE_PATH}/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appId: 'com.apple.Preferences' }),
      });
      expect(launched.status).toBe(200);
      await expectJpeg(await client.changedFrame(before, seen));
      client.close();
    } finally {
      await rest.close();
      await perception.close();
      await hub.close();
      await iphone.close();
    }
  });
});


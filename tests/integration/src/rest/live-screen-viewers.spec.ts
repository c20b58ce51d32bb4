import { setTimeout as sleep } from 'node:timers/promises';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub, SCREEN_POLL_MIN_INTERVAL_MS } from '@apex/hub';
import { MAX_SCREEN_VIEWERS_PER_DEVICE } from '@apex/capability';
import { Perception } from '@apex/perception';
import { createRestLogger, createRestServer, type RestServer } from '@apex/rest';
import { eventually } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';
import { DEVICE, DEVICE_PATH, startRestHarness, type RestHarness } from './harness';
import { StreamClient } from './stream-client';

const WAIT = { timeoutMs: 30_000 };

/** Opens the stream once more and reads only its status and, for a refusal, its problem (never an endless body). */
async function openAnother(url: string): Promise<{ status: number; code?: string; detail?: string }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  if (res.headers.get('content-type')?.startsWith('application/problem+json')) {
    const problem = (await res.json()) as { code?: string; detail?: string };
    return { status: res.status, code: problem.code, detail: problem.detail };
  }
  controller.abort();
  return { status: res.status };
}

async function openViewers(url: string, count: number): Promise<StreamClient[]> {
  const viewers = await Promise.all(Array.from({ length: count }, () => StreamClient.open(url)));
  for (const viewer of viewers) expect(viewer.response.statusCode).toBe(200);
  await eventually(() => viewers.every((v) => v.frames.length >= 1), { ...WAIT, what: 'a frame for every viewer' });
  return viewers;
}

describe('the live screen of a device without its own stream: one screenshot poller shared by every viewer', () => {
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let hub: DeviceHub;
  let perception: Perception;
  let rest: RestServer;
  let url: string;
  // The device's screenshot calls, counted where the phone receives them.
  const screenshots = () => proxy.requests.filter((r) => r.path.endsWith('/screenshot')).length;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    proxy = await new RecordingProxy(iphone.url).start();
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: DEVICE, driver: createWdaDriver({ deviceId: DEVICE, url: proxy.url }) });
    perception = new Perception(hub);
    rest = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    url = (await rest.listen(0)).url;
  });
  afterAll(async () => {
    await rest.close();
    await perception.close();
    await hub.close();
    await proxy.close();
    await iphone.close();
  });

  it(`serves ${MAX_SCREEN_VIEWERS_PER_DEVICE} viewers from one poller: no viewer's capture queues ahead of an action, the rate stays one poller's`, async () => {
    const viewers = await openViewers(`${url}${DEVICE_PATH}/stream`, MAX_SCREEN_VIEWERS_PER_DEVICE);
    for (const viewer of viewers) expect(viewer.response.headers['x-frame-source']).toBe('screenshots');

    // At most 10 device screenshots a second, whatever the number of viewers (an upper bound: a slow machine only lowers it).
    const [c0, t0] = [screenshots(), Date.now()];
    await sleep(1_000);
    const [c1, t1] = [screenshots(), Date.now()];
    expect(c1 - c0).toBeLessThanOrEqual((t1 - t0) / SCREEN_POLL_MIN_INTERVAL_MS + 2);

    // A first tap reads the screen size (cached after), so that the tap below is one call in the queue.
    const tapAt = { x: 20, y: 20, observe: 'none' };
    expect((await fetch(`${url}${DEVICE_PATH}/tap`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tapAt) })).status).toBe(200);

    // Hold the device's next screenshot: the queue then holds only what else asks for the device (a tap), not
    // one capture per viewer; the tap is the next call the phone gets.
    proxy.hold((r) => r.path.endsWith('/screenshot'));
    await eventually(() => proxy.heldCount === 1, { ...WAIT, what: 'a screenshot held at the phone' });
    const tap = fetch(`${url}${DEVICE_PATH}/tap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tapAt),
    });
    tap.catch(() => undefined); // awaited below; a failed check before that must not leave it unhandled
    await eventually(() => hub.waiting(DEVICE) >= 1, { ...WAIT, what: 'the tap in the device queue' });
    expect(hub.waiting(DEVICE)).toBe(1);
    const released = proxy.requests.length;
    proxy.release();
    expect((await tap).status).toBe(200);
    const sinceRelease = proxy.requests.slice(released).map((r) => r.path.split('/').at(-1));
    expect(sinceRelease.slice(0, sinceRelease.indexOf('tap'))).not.toContain('screenshot');
    expect(proxy.requests.slice(released).some((r) => r.path.endsWith('/tap'))).toBe(true);

    for (const viewer of viewers) viewer.close();
  });

  it(`refuses viewer ${MAX_SCREEN_VIEWERS_PER_DEVICE + 1} with device_busy; one leaving stops nothing for the others; the last one leaving stops the poller`, async () => {
    await eventually(async () => (await openAnother(`${url}/healthz`)).status === 200, WAIT);
    const viewers = await openViewers(`${url}${DEVICE_PATH}/stream`, MAX_SCREEN_VIEWERS_PER_DEVICE);
    const refused = await openAnother(`${url}${DEVICE_PATH}/stream`);
    expect(refused).toMatchObject({ status: 409, code: 'device_busy' });
    expect(refused.detail).toContain(`${MAX_SCREEN_VIEWERS_PER_DEVICE} viewers`);

    // One leaves: the others see the next change, and a new viewer fits again.
    viewers[0].close();
    const stayed = viewers.slice(1);
    const seen = stayed.map((v) => v.frames.length);
    const before = stayed[0].frames.at(-1) as Buffer;
    const launched = await fetch(`${url}${DEVICE_PATH}/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ appId: 'com.apple.Preferences', observe: 'none' }),
    });
    expect(launched.status).toBe(200);
    await Promise.all(stayed.map((v, i) => v.changedFrame(before, seen[i])));
    const again = await eventually(async () => {
      const viewer = await StreamClient.open(`${url}${DEVICE_PATH}/stream`);
      if (viewer.response.statusCode === 200) return viewer;
      viewer.close();
      return undefined;
    }, { ...WAIT, what: 'room for a viewer after one left' });

    // All leave: the phone gets no more screenshots.
    for (const viewer of [...stayed, again as StreamClient]) viewer.close();
    await eventually(async () => {
      const count = screenshots();
      await sleep(3 * SCREEN_POLL_MIN_INTERVAL_MS);
      return screenshots() === count;
    }, { ...WAIT, what: 'the screenshots to stop' });
    const stopped = screenshots();
    await sleep(5 * SCREEN_POLL_MIN_INTERVAL_MS);
    expect(screenshots()).toBe(stopped);
  });
});

describe("the live screen of a device with its own stream: one connection to it shared by every viewer", () => {
  let h: RestHarness;
  const phone = () => h.runtime.embedded as NonNullable<RestHarness['runtime']['embedded']>;

  beforeAll(async () => {
    h = await startRestHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it(`relays one device stream to ${MAX_SCREEN_VIEWERS_PER_DEVICE} viewers, refuses one more, and closes it when the last viewer leaves`, async () => {
    const viewers = await openViewers(`${h.url}${DEVICE_PATH}/stream`, MAX_SCREEN_VIEWERS_PER_DEVICE);
    for (const viewer of viewers) expect(viewer.response.headers['x-frame-source']).toBe('device');
    expect(phone().streamViewers()).toBe(1);
    expect(await openAnother(`${h.url}${DEVICE_PATH}/stream`)).toMatchObject({ status: 409, code: 'device_busy' });

    // One leaving stops nothing for the others: frames keep coming over the same connection.
    viewers[0].close();
    const seen = viewers.map((v) => v.frames.length);
    await eventually(() => viewers.slice(1).every((v, i) => v.frames.length >= seen[i + 1] + 2), { ...WAIT, what: 'frames for the viewers that stayed' });
    expect(phone().streamViewers()).toBe(1);

    for (const viewer of viewers.slice(1)) viewer.close();
    await eventually(() => phone().streamViewers() === 0, { ...WAIT, what: "the phone's stream closed" });
  });
});

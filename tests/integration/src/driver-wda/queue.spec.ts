import { DeviceHub, tap } from '@apex/hub';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { RecordingProxy } from './support/recording-proxy';

const isTap = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/wda/tap');

describe('driver-wda through the hub: queueing over real HTTP', () => {
  let phoneA: VirtualIPhone;
  let phoneB: VirtualIPhone;
  let proxyA: RecordingProxy;
  let hub: DeviceHub;

  beforeAll(async () => {
    phoneA = await startVirtualIPhone({ port: 0 });
    phoneB = await startVirtualIPhone({ port: 0 });
    proxyA = await new RecordingProxy(phoneA.url).start();
    hub = new DeviceHub({ backgroundProbes: false, maxWaitingActions: 100 });
    hub.register({ id: 'a', driver: createWdaDriver({ deviceId: 'a', url: proxyA.url }) });
    hub.register({ id: 'b', driver: createWdaDriver({ deviceId: 'b', url: phoneB.url }) });
    await hub.screen('a');
    await hub.screen('b');
  });

  afterAll(async () => {
    await hub.close();
    await proxyA.close();
    await phoneA.close();
    await phoneB.close();
  });

  it('delivers 100 concurrent taps on one device in call order, one at a time', async () => {
    const firstTap = proxyA.requests.length;
    // Distinct points in the empty strip near the bottom of the home screen, so every tap is identifiable.
    const points = Array.from({ length: 100 }, (_, i) => ({ x: 1 + i * 3.5, y: 300.5 + (i % 7) }));
    await Promise.all(points.map((point) => tap(hub, 'a', point)));

    const taps = proxyA.requests.slice(firstTap).filter(isTap);
    expect(taps.map((r) => JSON.parse(r.body))).toEqual(points);
    // Never interleaved: each tap's response passed the proxy before the next tap's request arrived.
    for (const [index, request] of taps.entries()) {
      const responseAt = proxyA.events.indexOf(`response ${request.seq}`);
      expect(responseAt).toBeGreaterThan(proxyA.events.indexOf(`request ${request.seq}`));
      const next = taps[index + 1];
      if (next) expect(proxyA.events.indexOf(`request ${next.seq}`)).toBeGreaterThan(responseAt);
    }
  });

  it('lets device B progress while device A is stuck in an action', async () => {
    proxyA.hold(isTap);
    const onA = tap(hub, 'a', { x: 10, y: 300 });
    await eventually(() => proxyA.heldCount === 1, { timeoutMs: 20_000, what: 'the tap on A to reach the proxy' });
    let aDone = false;
    void onA.then(() => {
      aDone = true;
    });
    // Several actions complete on B while A's single tap is parked.
    for (let i = 0; i < 5; i += 1) await tap(hub, 'b', { x: 10 + i, y: 300 });
    expect(aDone).toBe(false);
    expect(hub.summary('a').state).toBe('busy');
    expect(hub.summary('b').state).toBe('online');
    proxyA.release();
    await onA;
    expect(hub.summary('a').state).toBe('online');
  });
});

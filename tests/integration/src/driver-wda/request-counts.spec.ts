import { captureScreen, DeviceHub, tap } from '@apex/hub';
import { createWdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy, type ProxiedRequest } from './support/recording-proxy';

/** `POST /session/<id>/wda/tap` → `POST /session/:id/wda/tap`: the session id differs from run to run. */
const route = (r: ProxiedRequest) => `${r.method} ${r.path.replace(/^\/session\/[^/]+/, '/session/:id')}`;

describe('driver-wda through the hub: what a tap costs in requests to the phone', () => {
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let hub: DeviceHub;

  beforeEach(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    proxy = await new RecordingProxy(iphone.url).start();
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'a', driver: createWdaDriver({ deviceId: 'a', url: proxy.url }) });
  });
  afterEach(async () => {
    await hub.close();
    await proxy.close();
    await iphone.close();
  });

  const sinceMark = (mark: number) => proxy.requests.slice(mark).map(route);

  it('a cold tap costs 3 requests (screen, session, tap), a steady-state tap exactly 1', async () => {
    await tap(hub, 'a', { x: 10, y: 300 });
    expect(sinceMark(0)).toEqual(['GET /wda/screen', 'POST /session', 'POST /session/:id/wda/tap']);
    const mark = proxy.requests.length;
    await tap(hub, 'a', { x: 11, y: 300 });
    expect(sinceMark(mark)).toEqual(['POST /session/:id/wda/tap']);
  });

  it('a screenshot after the first screen read is one request: the scale is known', async () => {
    await hub.screen('a');
    const mark = proxy.requests.length;
    const shot = await captureScreen(hub, 'a');
    expect(sinceMark(mark)).toEqual(['GET /screenshot']);
    expect(shot.scale).toBe(shot.screen.scale);
  });
});

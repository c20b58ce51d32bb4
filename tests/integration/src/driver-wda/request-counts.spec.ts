import { captureScreen, DeviceHub, tap } from '@apex/hub';
import { createWdaDriver } from '@apex/driver-wda';
import { runOperation, type OperationContext } from '@apex/capability';
import { Perception } from '@apex/perception';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy, type ProxiedRequest } from './support/recording-proxy';

/**
 * `POST /session/<id>/wda/tap` → `POST /session/:id/wda/tap`: the session id differs from run to run; the
 * query (e.g. the source's format) is the driver's business, not a request more or less.
 */
const route = (r: ProxiedRequest) => `${r.method} ${r.path.replace(/\?.*$/, '').replace(/^\/session\/[^/]+/, '/session/:id')}`;

describe('driver-wda through the hub: what each operation costs in requests to the phone', () => {
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let hub: DeviceHub;
  let ctx: OperationContext;

  beforeEach(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    proxy = await new RecordingProxy(iphone.url).start();
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'a', driver: createWdaDriver({ deviceId: 'a', url: proxy.url }) });
    ctx = { hub, perception: new Perception(hub, { ocrWorkers: 1 }) };
  });
  afterEach(async () => {
    await ctx.perception.close();
    await hub.close();
    await proxy.close();
    await iphone.close();
  });

  /** Runs the operation once to warm up (session, screen geometry), then counts what a second run sends. */
  const steadyRequests = async (operation: string, input: Record<string, unknown>) => {
    await runOperation(ctx, operation, input);
    const mark = proxy.requests.length;
    const result = await runOperation(ctx, operation, input);
    return { routes: sinceMark(mark), result };
  };

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

  /** A point on the home screen with nothing under it: a tap there changes nothing. */
  const EMPTY = { x: 196, y: 500 };
  /** Where find_text says `label` is, from the tree. */
  const centerOf = async (label: string) => {
    const found = await runOperation(ctx, 'find_text', { text: label, exact: true, source: 'ui-tree' });
    const [match] = found.output['matches'] as { center: { x: number; y: number } }[];
    return { x: Math.round(match.center.x), y: Math.round(match.center.y) };
  };
  /** What no cheap observation may send: the routes of the whole status read. */
  const STATUS_ROUTES = ['GET /status', 'GET /wda/device/info', 'GET /wda/batteryInfo', 'GET /session/:id/wda/batteryInfo', 'GET /wda/locked', 'GET /orientation'];

  it('a steady tap with observe "none" is exactly one request', async () => {
    const { routes, result } = await steadyRequests('tap', { ...EMPTY, observe: 'none' });
    expect(routes).toEqual(['POST /session/:id/wda/tap']);
    expect(result.output).toEqual({ tapped: EMPTY });
  });

  it('a default tap (observe "summary") on a steady screen is 2 requests: the tap and one tree read', async () => {
    const { routes, result } = await steadyRequests('tap', EMPTY);
    expect(routes).toEqual(['POST /session/:id/wda/tap', 'GET /source']);
    expect(result.output['observed']).toEqual({ app: { appId: 'com.apple.springboard', name: expect.any(String) }, changed: false, keyboardVisible: false });
  });

  it('a default tap that brings another app to the front is at most 4 requests (here 3: tap, tree, the app in front), never the status', async () => {
    await runOperation(ctx, 'tap', EMPTY);
    const settings = await centerOf('Settings');
    const mark = proxy.requests.length;
    const result = await runOperation(ctx, 'tap', settings);
    const routes = sinceMark(mark);
    expect(routes.length).toBeLessThanOrEqual(4);
    expect(routes).toEqual(['POST /session/:id/wda/tap', 'GET /source', 'GET /wda/activeAppInfo']);
    expect(routes.filter((r) => STATUS_ROUTES.includes(r))).toEqual([]);
    expect(result.output['observed']).toMatchObject({ app: { appId: 'com.apple.Preferences' }, changed: true });
    expect(result.summary).toMatch(/^Tapped \(\d+, \d+\)\.\nNow: Settings; screen changed\.$/);
  });

  it('take_screenshot is exactly one GET /screenshot', async () => {
    const { routes } = await steadyRequests('take_screenshot', {});
    expect(routes).toEqual(['GET /screenshot']);
  });

  it('get_ui_tree is exactly one GET /source', async () => {
    const { routes, result } = await steadyRequests('get_ui_tree', {});
    expect(routes).toEqual(['GET /source']);
    expect(JSON.stringify(result.output)).toContain('Settings');
  });

  it('a tree-only find_text is exactly one GET /source', async () => {
    const { routes, result } = await steadyRequests('find_text', { text: 'Settings', source: 'ui-tree' });
    expect(routes).toEqual(['GET /source']);
    expect(result.output).toMatchObject({ matches: [expect.objectContaining({ source: 'ui-tree' })] });
  });

  it('a find_text the tree answers is exactly one GET /source', async () => {
    const { routes, result } = await steadyRequests('find_text', { text: 'Settings' });
    expect(routes).toEqual(['GET /source']);
    expect(result.output).toMatchObject({ matches: [expect.objectContaining({ source: 'ui-tree' })] });
  });

  it('a find_text the tree matches only loosely (a typo) reads no pixels either: exactly one GET /source', async () => {
    const { routes, result } = await steadyRequests('find_text', { text: 'Setings' });
    expect(routes).toEqual(['GET /source']);
    expect(result.output).toMatchObject({ matches: [expect.objectContaining({ text: 'Settings', source: 'ui-tree' })] });
  });

  it('describe_screen on an unchanged screen is at most 2 requests: the tree and the pixels', async () => {
    const { routes, result } = await steadyRequests('describe_screen', {});
    expect(routes.length).toBeLessThanOrEqual(2);
    expect([...routes].sort()).toEqual(['GET /screenshot', 'GET /source']);
    expect(result.output).toMatchObject({ app: { appId: 'com.apple.springboard' } });
  });

  it('describe_screen without OCR is one GET /source', async () => {
    const { routes } = await steadyRequests('describe_screen', { includeOcrText: false });
    expect(routes).toEqual(['GET /source']);
  });

  it('describe_screen reads the foreground app again once another app is in front', async () => {
    expect((await runOperation(ctx, 'describe_screen', { includeOcrText: false })).output).toMatchObject({ app: { appId: 'com.apple.springboard' } });
    await runOperation(ctx, 'launch_app', { appId: 'com.apple.Preferences' });
    const described = await runOperation(ctx, 'describe_screen', { includeOcrText: false });
    expect(described.output).toMatchObject({ app: { appId: 'com.apple.Preferences' } });
  });

  it('describe_screen follows a rotation made behind its back, with and without the pixels', async () => {
    iphone.phone.launchApp('com.apple.Preferences');
    await runOperation(ctx, 'describe_screen', { includeOcrText: false });
    iphone.phone.setOrientation('LANDSCAPE');
    const withoutPixels = await runOperation(ctx, 'describe_screen', { includeOcrText: false });
    expect(withoutPixels.output).toMatchObject({ orientation: 'landscape', screen: { width: 852, height: 393 } });
    iphone.phone.setOrientation('PORTRAIT');
    const withPixels = await runOperation(ctx, 'describe_screen', {});
    expect(withPixels.output).toMatchObject({ orientation: 'portrait', screen: { width: 393, height: 852 } });
  });
});

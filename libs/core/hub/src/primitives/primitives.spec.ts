import sharp from 'sharp';
import { DeviceHub } from '../hub/device-hub';
import { FakeDriver } from '../testing';
import {
  captureScreen,
  deviceStatus,
  foregroundApp,
  getUiTree,
  inputText,
  launchApp,
  listApps,
  listDevices,
  pressButton,
  swipe,
  tap,
  terminateApp,
} from './index';
import { rejectionOf } from '@apex/errors/testing';
import type { AppList } from '@apex/port';
import { installApp, uninstallApp } from './app-loop';

describe('primitives', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'phone', name: 'Phone', driver });
  });
  afterEach(() => hub.close());

  describe('the app in front', () => {
    it('is one cheap read where the driver has one: no status read', async () => {
      const cheap = Object.assign(new FakeDriver(), { foregroundApp: jest.fn(async () => ({ appId: 'com.example.front', name: 'Front' })) });
      hub.register({ id: 'cheap', driver: cheap });
      expect(await foregroundApp(hub, 'cheap')).toEqual({ appId: 'com.example.front', name: 'Front' });
      expect(cheap.foregroundApp).toHaveBeenCalledTimes(1);
      expect(cheap.callsOf('status')).toEqual([]);
    });

    it('falls back to the status on a driver without that read', async () => {
      driver.behave('status', async () => ({ platform: 'ios', screen: { width: 390, height: 844, scale: 3 }, foregroundApp: { appId: 'com.example.fake' } }));
      expect(await foregroundApp(hub, 'phone')).toEqual({ appId: 'com.example.fake' });
      expect(driver.callsOf('status')).toHaveLength(1);
    });
  });

  // Input is validated once, by the operation schemas (libs/core/capability); what stays here needs the device.
  describe('rules that need the device', () => {
    it.each([
      [{ x: -1, y: 10 }, 'x'],
      [{ x: 390, y: 10 }, 'x'],
      [{ x: 10, y: 844.5 }, 'y'],
      [{ x: Number.NaN, y: 10 }, 'x'],
      [{ x: 10, y: Number.POSITIVE_INFINITY }, 'y'],
    ])('tap rejects the off-screen point %o after checking a fresh geometry', async (point, path) => {
      const error = await rejectionOf(tap(hub, 'phone', point));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues?.map((i) => i.path)).toEqual([path]);
      expect(error.message).toMatch(/390×844 points/);
      expect(driver.callsOf('tap')).toEqual([]);
      expect(driver.callsOf('screen').length).toBe(2);
    });

    it('accepts a point that is on screen after the phone rotated', async () => {
      await hub.screen('phone');
      driver.geometry = { width: 844, height: 390, scale: 3 };
      await tap(hub, 'phone', { x: 800, y: 100 });
      expect(driver.callsOf('tap').map((c) => c.args[0])).toEqual([{ x: 800, y: 100 }]);
    });

    it('swipe rejects off-screen points, naming each one', async () => {
      expect((await rejectionOf(swipe(hub, 'phone', { from: { x: 10, y: 10 }, to: { x: 10, y: 900 } }))).issues).toEqual([
        expect.objectContaining({ path: 'to.y' }),
      ]);
      expect((await rejectionOf(swipe(hub, 'phone', { direction: 'up', start: { x: 500, y: 10 } }))).issues?.[0]?.path).toBe(
        'start.x',
      );
      expect(driver.callsOf('swipe')).toEqual([]);
    });

    it('an unknown device id is device_not_found before any call', async () => {
      expect((await rejectionOf(tap(hub, 'other', { x: 1, y: 1 }))).code).toBe('device_not_found');
      expect((await rejectionOf(launchApp(hub, 'other', 'com.example.fake'))).code).toBe('device_not_found');
      expect(driver.calls).toEqual([]);
    });
  });

  it('take the resolved device id as given: no primitive resolves it again', async () => {
    const resolve = jest.spyOn(hub, 'resolve');
    await tap(hub, 'phone', { x: 1, y: 1 });
    await swipe(hub, 'phone', { direction: 'up' });
    await inputText(hub, 'phone', { text: 'a' });
    await launchApp(hub, 'phone', 'com.example.fake');
    await listApps(hub, 'phone');
    await getUiTree(hub, 'phone');
    await deviceStatus(hub, 'phone');
    await captureScreen(hub, 'phone');
    expect(resolve).not.toHaveBeenCalled();
  });

  it('tap and swipe reach the driver in points', async () => {
    await tap(hub, 'phone', { x: 100.5, y: 200 });
    await swipe(hub, 'phone', { from: { x: 10, y: 700 }, to: { x: 10, y: 100 }, durationMs: 500 });
    await swipe(hub, 'phone', { direction: 'up' });
    await swipe(hub, 'phone', { direction: 'left', start: { x: 380, y: 400 }, distance: 1000 });
    expect(driver.callsOf('tap')[0].args[0]).toEqual({ x: 100.5, y: 200 });
    expect(driver.callsOf('swipe').map((c) => c.args[0])).toEqual([
      { from: { x: 10, y: 700 }, to: { x: 10, y: 100 }, durationMs: 500 },
      // up: the finger moves up from the centre by half the height
      { from: { x: 195, y: 422 }, to: { x: 195, y: 0.5 }, durationMs: 300 },
      // left, clamped inside the screen
      { from: { x: 380, y: 400 }, to: { x: 0.5, y: 400 }, durationMs: 300 },
    ]);
  });

  it('inputText, apps, buttons and the tree pass through', async () => {
    await inputText(hub, 'phone', { text: 'hello', submit: true });
    await launchApp(hub, 'phone', 'com.apple.Preferences');
    expect(await terminateApp(hub, 'phone', 'com.apple.Preferences')).toBe(true);
    await pressButton(hub, 'phone', 'home');
    expect(await listApps(hub, 'phone')).toEqual({ apps: [{ appId: 'com.example.fake', running: true }], complete: false });
    expect((await getUiTree(hub, 'phone')).role).toBe('app');
    expect(driver.calls.map((c) => c.method)).toEqual(['typeText', 'launchApp', 'terminateApp', 'pressButton', 'listApps', 'uiTree']);
    expect(driver.callsOf('typeText')[0].args[0]).toEqual({ text: 'hello', submit: true });
  });

  it('listApps names the apps this hub installed: added to an incomplete list, named where listed nameless', async () => {
    const build = (appId: string, name: string) => ({ path: `/builds/${name}.app`, kind: 'app' as const, appId, name });
    const installing = (listed: AppList) =>
      Object.assign(new FakeDriver(), { listApps: async () => listed, installApp: async () => ({ replaced: false }), uninstallApp: async () => undefined });
    hub.register({ id: 'running-only', driver: installing({ apps: [{ appId: 'com.example.fake', running: true }], complete: false }) });
    await installApp(hub, 'running-only', build('dev.apex.WhereAmI', 'Where Am I'));
    expect((await listApps(hub, 'running-only')).apps).toEqual([{ appId: 'com.example.fake', running: true }, { appId: 'dev.apex.WhereAmI', name: 'Where Am I' }]);
    await uninstallApp(hub, 'running-only', 'dev.apex.WhereAmI');
    expect((await listApps(hub, 'running-only')).apps).toEqual([{ appId: 'com.example.fake', running: true }]);
    // A complete list is the device's word: an app it no longer lists is not added back; a nameless one is named.
    hub.register({ id: 'complete', driver: installing({ apps: [{ appId: 'dev.apex.whereami' }], complete: true }) });
    await installApp(hub, 'complete', build('dev.apex.whereami', 'Where Am I'));
    await installApp(hub, 'complete', build('dev.apex.gone', 'Gone'));
    expect(await listApps(hub, 'complete')).toEqual({ apps: [{ appId: 'dev.apex.whereami', name: 'Where Am I' }], complete: true });
  });

  it('listApps is unsupported_operation when the driver lacks it', async () => {
    const bare = new FakeDriver({ withoutListApps: true });
    hub.register({ id: 'bare', driver: bare });
    expect((await rejectionOf(listApps(hub, 'bare'))).code).toBe('unsupported_operation');
    expect(bare.calls).toEqual([]);
  });

  it('listDevices and deviceStatus combine the summary with the driver status', async () => {
    expect(listDevices(hub)).toEqual([{ id: 'phone', name: 'Phone', platform: 'ios', state: 'online' }]);
    expect(await deviceStatus(hub, 'phone')).toEqual({
      id: 'phone',
      name: 'Phone',
      platform: 'ios',
      state: 'online',
      screen: { width: 390, height: 844, scale: 3 },
      osVersion: '17.5',
      model: 'Fake Phone',
    });
  });

  describe('captureScreen', () => {
    const native = { width: 390 * 3, height: 844 * 3 };
    let png: Buffer;
    beforeEach(async () => {
      png = await sharp({ create: { ...native, channels: 3, background: '#336699' } }).png().toBuffer();
      driver.behave('screenshot', async () => ({ png, width: native.width, height: native.height, scale: 3 }));
    });

    it('returns the native PNG as captured, with the screen geometry, in one capture', async () => {
      const raw = await captureScreen(hub, 'phone');
      expect(raw).toMatchObject({ width: 1170, height: 2532, scale: 3, screen: { width: 390, height: 844, scale: 3 } });
      expect(raw.png).toBe(png);
      expect(driver.callsOf('screenshot')).toHaveLength(1);
    });

    it('keeps the cached geometry in step with what the capture shows (the phone rotated)', async () => {
      expect(await hub.screen('phone')).toEqual({ width: 390, height: 844, scale: 3 });
      driver.behave('screenshot', async () => ({ png, width: native.height, height: native.width, scale: 3 }));
      await captureScreen(hub, 'phone');
      expect(await hub.screen('phone')).toEqual({ width: 844, height: 390, scale: 3 });
    });
  });
});

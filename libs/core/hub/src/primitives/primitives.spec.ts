import sharp from 'sharp';
import { DeviceHub } from '../hub/device-hub';
import { FakeDriver } from '../testing';
import {
  captureScreen,
  deviceStatus,
  getUiTree,
  inputText,
  launchApp,
  listApps,
  listDevices,
  pressButton,
  swipe,
  takeScreenshot,
  tap,
  terminateApp,
} from './index';
import { rejectionOf } from '@apex/errors/testing';


describe('primitives', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'phone', name: 'Phone', driver });
  });
  afterEach(() => hub.close());

  describe('validation never reaches the device', () => {
    it.each([
      ['NaN', { x: Number.NaN, y: 10 }, 'x'],
      ['Infinity', { x: 10, y: Number.POSITIVE_INFINITY }, 'y'],
      ['missing y', { x: 10 }, 'y'],
      ['a string', { x: '10', y: 10 }, 'x'],
    ])('tap rejects %s', async (_name, point, path) => {
      const error = await rejectionOf(tap(hub, 'phone', point as never));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues?.map((i) => i.path)).toContain(path);
      expect(driver.calls).toEqual([]);
    });

    it.each([
      [{ x: -1, y: 10 }, 'x'],
      [{ x: 390, y: 10 }, 'x'],
      [{ x: 10, y: 844.5 }, 'y'],
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

    it('swipe rejects off-screen or non-finite points and bad directions', async () => {
      expect((await rejectionOf(swipe(hub, 'phone', { from: { x: 10, y: 10 }, to: { x: 10, y: 900 } }))).issues).toEqual([
        expect.objectContaining({ path: 'to.y' }),
      ]);
      expect((await rejectionOf(swipe(hub, 'phone', { from: { x: Number.NaN, y: 10 }, to: { x: 10, y: 10 } }))).code).toBe(
        'invalid_argument',
      );
      expect((await rejectionOf(swipe(hub, 'phone', { direction: 'sideways' } as never))).issues?.[0]?.path).toBe('direction');
      expect((await rejectionOf(swipe(hub, 'phone', { direction: 'up', distance: -5 }))).issues?.[0]?.path).toBe('distance');
      expect((await rejectionOf(swipe(hub, 'phone', { direction: 'up', start: { x: 500, y: 10 } }))).issues?.[0]?.path).toBe(
        'start.x',
      );
      expect((await rejectionOf(swipe(hub, 'phone', {} as never))).code).toBe('invalid_argument');
      expect(driver.callsOf('swipe')).toEqual([]);
    });

    it('inputText, launchApp, pressButton and screenshot options reject bad input', async () => {
      expect((await rejectionOf(inputText(hub, 'phone', { text: '' }))).issues?.[0]?.path).toBe('text');
      expect((await rejectionOf(inputText(hub, 'phone', {} as never))).issues?.[0]?.path).toBe('text');
      expect((await rejectionOf(launchApp(hub, 'phone', ''))).code).toBe('invalid_argument');
      expect((await rejectionOf(launchApp(hub, 'phone', 'com.x; rm -rf'))).code).toBe('invalid_argument');
      expect((await rejectionOf(terminateApp(hub, 'phone', undefined as never))).code).toBe('invalid_argument');
      expect((await rejectionOf(pressButton(hub, 'phone', 'power' as never))).code).toBe('invalid_argument');
      expect((await rejectionOf(takeScreenshot(hub, 'phone', { format: 'gif' } as never))).issues?.[0]?.path).toBe('format');
      expect((await rejectionOf(takeScreenshot(hub, 'phone', { quality: 0 }))).issues?.[0]?.path).toBe('quality');
      expect(driver.calls).toEqual([]);
    });

    it('unknown device ids are device_not_found before any call', async () => {
      expect((await rejectionOf(tap(hub, 'other', { x: 1, y: 1 }))).code).toBe('device_not_found');
      expect(driver.calls).toEqual([]);
    });
  });

  it('tap and swipe reach the driver in points', async () => {
    await tap(hub, undefined, { x: 100.5, y: 200 });
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
    expect(await listApps(hub, 'phone')).toEqual([{ appId: 'com.example.fake', running: true }]);
    expect((await getUiTree(hub, 'phone')).role).toBe('app');
    expect(driver.calls.map((c) => c.method)).toEqual(['typeText', 'launchApp', 'terminateApp', 'pressButton', 'listApps', 'uiTree']);
    expect(driver.callsOf('typeText')[0].args[0]).toEqual({ text: 'hello', submit: true });
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

  describe('screenshots', () => {
    const native = { width: 390 * 3, height: 844 * 3 };
    beforeEach(async () => {
      const png = await sharp({ create: { ...native, channels: 3, background: '#336699' } }).png().toBuffer();
      driver.behave('screenshot', async () => ({ png, width: native.width, height: native.height, scale: 3 }));
    });

    it('scales to points by default, so pixels are tap coordinates', async () => {
      const shot = await takeScreenshot(hub, 'phone');
      expect(shot).toMatchObject({ mimeType: 'image/png', width: 390, height: 844, pixelsPerPoint: 1 });
      const meta = await sharp(shot.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 390, 844]);
    });

    it('keeps native pixels, or encodes JPEG capped in width', async () => {
      const nativeShot = await takeScreenshot(hub, 'phone', { scale: 'native' });
      expect(nativeShot).toMatchObject({ width: 1170, height: 2532, pixelsPerPoint: 3 });
      const jpeg = await takeScreenshot(hub, 'phone', { format: 'jpeg', scale: 'native', maxWidth: 585, quality: 60 });
      expect(jpeg).toMatchObject({ mimeType: 'image/jpeg', width: 585, height: 1266, pixelsPerPoint: 1.5 });
      const meta = await sharp(jpeg.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 585, 1266]);
    });

    it('captureScreen returns the native PNG with the screen geometry', async () => {
      const raw = await captureScreen(hub, 'phone');
      expect(raw).toMatchObject({ width: 1170, height: 2532, scale: 3, screen: { width: 390, height: 844, scale: 3 } });
    });
  });
});

import sharp from 'sharp';
import { createAppiumDriver, type AppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { DeviceHub, streamScreen } from '@apex/hub';
import { eventually } from '@apex/testing';
import { SETTINGS_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

const live = new AbortController().signal;

/**
 * The live screen through driver-appium: in webDriverAgentUrl mode the stream is the agent's own MJPEG port on
 * its host (`mjpegUrl`), read by the same reader driver-wda uses, beside the session's commands (which go
 * through a real Appium server, XCUITest driver).
 */
describe('driver-appium streams the screen (the agent host MJPEG port)', () => {
  let server: AppiumServer;
  let iphone: VirtualIPhone;
  let driver: AppiumDriver;
  let hub: DeviceHub;

  beforeAll(async () => {
    [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0, mjpegPort: 0 })]);
    driver = createAppiumDriver({
      deviceId: 'iphone-as',
      serverUrl: server.url,
      capabilities: iosCapabilities(iphone.url),
      mjpegUrl: `http://127.0.0.1:${iphone.mjpegPort}`,
    });
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'iphone-as', driver });
  });
  afterAll(async () => {
    await hub?.close();
    await server?.close();
    await iphone?.close();
  });

  it('yields JPEG frames of the screen, and a tap sent through Appium shows in a later frame', async () => {
    const controller = new AbortController();
    const frames: Buffer[] = [];
    const reading = (async () => {
      for await (const frame of streamScreen(hub, 'iphone-as', controller.signal)) frames.push(Buffer.from(frame));
    })();
    try {
      await eventually(() => frames.length >= 1, { timeoutMs: 30_000, what: 'a first frame' });
      const meta = await sharp(frames[0]).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.width).toBe(iphone.phone.profile.width * iphone.phone.profile.scale);
      const first = frames.length;
      const before = frames[first - 1];
      await driver.launchApp(SETTINGS_BUNDLE_ID, live);
      await eventually(() => frames.slice(first).some((f) => !f.equals(before)), { timeoutMs: 30_000, what: 'a frame of the new screen' });
    } finally {
      controller.abort();
      await reading;
    }
    await eventually(() => iphone.streamViewers() === 0, { timeoutMs: 20_000, what: 'the stream connection closed' });
  });

  it('without mjpegUrl the driver has no stream (the hub says unsupported_operation)', () => {
    const plain = createAppiumDriver({ deviceId: 'iphone-np', serverUrl: server.url, capabilities: iosCapabilities(iphone.url) });
    expect(plain.stream).toBeUndefined();
    const other = new DeviceHub({ backgroundProbes: false });
    other.register({ id: 'iphone-np', driver: plain });
    try {
      expect(() => streamScreen(other, 'iphone-np', live)).toThrow(expect.objectContaining({ code: 'unsupported_operation' }));
    } finally {
      void other.close();
    }
  });
});

import sharp from 'sharp';
import { createWdaDriver } from '@apex/driver-wda';
import { eventually } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';

/** driver-wda's stream() over the virtual iPhone's MJPEG listener (raw TCP, as a phone's port 9100). */
describe('driver-wda reads the screen stream of the virtual iPhone', () => {
  let iphone: VirtualIPhone;
  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
  });
  afterAll(async () => {
    await iphone.close();
  });

  it('yields JPEG frames of the screen, shows a change, and closes the connection on abort', async () => {
    const driver = createWdaDriver({ deviceId: 'phone', url: iphone.url, mjpegUrl: `http://127.0.0.1:${iphone.mjpegPort}` });
    const stream = driver.stream;
    if (!stream) throw new Error('no stream ability');
    const controller = new AbortController();
    const frames: Buffer[] = [];
    for await (const frame of stream(controller.signal)) {
      frames.push(Buffer.from(frame));
      if (frames.length === 1) {
        expect(iphone.streamViewers()).toBe(1);
        iphone.phone.launchApp('com.apple.Preferences');
      }
      if (frames.length > 1 && !frames.at(-1)?.equals(frames[0])) controller.abort();
    }
    const meta = await sharp(frames[0]).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: iphone.phone.profile.width * iphone.phone.profile.scale });
    expect((await sharp(frames.at(-1) as Buffer).metadata()).format).toBe('jpeg');
    await eventually(() => iphone.streamViewers() === 0, { timeoutMs: 20_000, what: 'the stream connection closed' });
    await driver.close(AbortSignal.timeout(5_000));
  });

  it('has no stream unless one is configured', () => {
    expect(createWdaDriver({ deviceId: 'phone', url: iphone.url }).stream).toBeUndefined();
  });
});

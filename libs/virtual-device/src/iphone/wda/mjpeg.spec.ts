import { connect, type Socket } from 'node:net';
import sharp from 'sharp';
import { eventually } from '@apex/testing';
import { emulatorOptionsFromArgs, startVirtualIPhone, type VirtualIPhone } from '../../index';
import { WdaHttp } from '../../testing';
import { frameIntervalMs, type FrameClock } from './mjpeg-server';

jest.setTimeout(60_000);

/** A raw TCP client of the stream: every byte it received, as the server sent them. */
class RawViewer {
  private readonly socket: Socket;
  bytes = Buffer.alloc(0);
  closed = false;

  constructor(port: number, greeting: string) {
    this.socket = connect(port, '127.0.0.1', () => this.socket.write(greeting));
    this.socket.on('data', (chunk: Buffer) => (this.bytes = Buffer.concat([this.bytes, chunk])));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => undefined);
  }

  text(): string {
    return this.bytes.toString('latin1');
  }

  /** The JPEG parts received so far, read by their Content-Length (an independent reading of the format). */
  frames(): Buffer[] {
    const frames: Buffer[] = [];
    const text = this.text();
    let at = text.indexOf('\r\n\r\n') + 4;
    for (;;) {
      const headEnd = text.indexOf('\r\n\r\n', at);
      if (headEnd < 0) break;
      const length = Number(/Content-Length: (\d+)/.exec(text.slice(at, headEnd))?.[1]);
      const start = headEnd + 4;
      if (start + length + 4 > this.bytes.length) break;
      frames.push(this.bytes.subarray(start, start + length));
      at = start + length + 4;
    }
    return frames;
  }

  end(): void {
    this.socket.destroy();
  }
}

const WAIT = { timeoutMs: 20_000 };

async function framesAtLeast(viewer: RawViewer, count: number): Promise<Buffer[] | undefined> {
  return eventually(() => (viewer.frames().length >= count ? viewer.frames() : undefined), { ...WAIT, what: `${count} frames` });
}

/** A clock whose ticks run when the test says so; it records every interval asked for. */
function manualClock(): FrameClock & { intervals: number[]; fire(): void } {
  let pending: (() => void) | undefined;
  const clock = {
    intervals: [] as number[],
    after(ms: number, tick: () => void) {
      clock.intervals.push(ms);
      pending = tick;
      return () => (pending = undefined);
    },
    fire() {
      const tick = pending;
      pending = undefined;
      tick?.();
    },
  };
  return clock;
}

describe('the virtual iPhone screen stream (MJPEG, as on port 9100 of a phone)', () => {
  let iphone: VirtualIPhone;
  const clock = manualClock();

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0, mjpegPort: 0, mjpegClock: clock });
  });

  afterAll(async () => {
    await iphone.close();
  });

  it('answers any bytes with the exact head and JPEG parts that decode', async () => {
    const viewer = new RawViewer(iphone.mjpegPort as number, 'x');
    await framesAtLeast(viewer, 1);
    clock.fire();
    await framesAtLeast(viewer, 2);
    expect(viewer.text().startsWith('HTTP/1.0 200 OK\r\n')).toBe(true);
    expect(viewer.text()).toContain('\r\nContent-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: ');
    const [first] = viewer.frames();
    const meta = await sharp(first).metadata();
    expect(meta.format).toBe('jpeg');
    // Scaling 100 %: native pixels (points × scale).
    expect(meta.width).toBe(iphone.phone.profile.width * iphone.phone.profile.scale);
    // The frame shows the screen: compared with the screenshot, both shrunk to a thumbnail (JPEG q25 is lossy).
    const thumb = (image: Buffer) => sharp(image).resize(20, 40, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const [fromFrame, fromPng] = await Promise.all([thumb(first), thumb(iphone.phone.renderPng())]);
    const meanDifference = fromFrame.reduce((sum, value, i) => sum + Math.abs(value - fromPng[i]), 0) / fromFrame.length;
    expect(meanDifference).toBeLessThan(12);
    const afterFirst = viewer.text().indexOf('\r\n\r\n', viewer.text().indexOf('Content-Length')) + 4 + first.length;
    expect(viewer.text().slice(afterFirst, afterFirst + 6)).toBe('\r\n\r\n--');
    viewer.end();
  });

  it('follows mjpegServerFramerate, quality and scaling set through /appium/settings', async () => {
    const wda = new WdaHttp(iphone.url);
    await wda.createSession();
    const viewer = new RawViewer(iphone.mjpegPort as number, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await framesAtLeast(viewer, 1);
    expect(clock.intervals.at(-1)).toBe(frameIntervalMs(10));
    const defaultBytes = viewer.frames()[0].length;

    const set = await wda.post(wda.s('/appium/settings'), { settings: { mjpegServerFramerate: 4, mjpegServerScreenshotQuality: 90, mjpegScalingFactor: 50 } });
    expect(set.json.value).toMatchObject({ mjpegServerFramerate: 4, mjpegScalingFactor: 50 });
    clock.fire();
    await framesAtLeast(viewer, 2);
    expect(clock.intervals.at(-1)).toBe(250);
    const meta = await sharp(viewer.frames()[1]).metadata();
    expect(meta.width).toBe(Math.round((iphone.phone.profile.width * iphone.phone.profile.scale) / 2));
    expect(viewer.frames()[1].length).not.toBe(defaultBytes);
    viewer.end();
    await wda.call('DELETE', wda.s(''));
  });

  it('shows a tap: the next frame differs', async () => {
    const viewer = new RawViewer(iphone.mjpegPort as number, 'x');
    await framesAtLeast(viewer, 1);
    const before = viewer.frames()[0];
    iphone.phone.launchApp('com.apple.Preferences');
    clock.fire();
    await framesAtLeast(viewer, 2);
    expect(viewer.frames().at(-1)?.equals(before)).toBe(false);
    viewer.end();
  });

  it('starts encoding the changed screen when a command changed it, before the next tick is due', async () => {
    const wda = new WdaHttp(iphone.url);
    await wda.createSession();
    const viewer = new RawViewer(iphone.mjpegPort as number, 'x');
    await framesAtLeast(viewer, 1);
    const rendered: number[] = [];
    const render = iphone.phone.renderPixels.bind(iphone.phone);
    const spy = jest.spyOn(iphone.phone, 'renderPixels').mockImplementation(() => {
      rendered.push(iphone.phone.version);
      return render();
    });
    try {
      const home = iphone.phone.version;
      await wda.post('/wda/homescreen', {});
      await wda.post(wda.s('/wda/apps/launch'), { bundleId: 'com.apple.reminders' });
      // No tick has fired: the frame of the new screen was made because the command changed it.
      await eventually(() => rendered.includes(iphone.phone.version), { ...WAIT, what: 'the new screen rendered for the stream' });
      expect(iphone.phone.version).not.toBe(home);
      // A command that changes nothing makes no frame.
      const count = rendered.length;
      await wda.get('/status');
      expect(rendered.length).toBe(count);
    } finally {
      spy.mockRestore();
      viewer.end();
      await wda.call('DELETE', wda.s(''));
    }
  });

  it('refuses a request that names a foreign Host (a DNS-rebinding page)', async () => {
    const viewer = new RawViewer(iphone.mjpegPort as number, 'GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n');
    await eventually(() => viewer.closed, WAIT);
    expect(viewer.bytes.length).toBe(0);
  });

  it('is off unless a port is given, and --mjpeg-port is validated', async () => {
    const plain = await startVirtualIPhone({ port: 0 });
    expect(plain.mjpegPort).toBeUndefined();
    await plain.close();
    expect(emulatorOptionsFromArgs({ mjpegPort: '9100' }, 8100)).toMatchObject({ port: 8100, mjpegPort: 9100 });
    expect(() => emulatorOptionsFromArgs({ mjpegPort: 'x' }, 8100)).toThrow(/--mjpeg-port must be an integer/);
  });
});

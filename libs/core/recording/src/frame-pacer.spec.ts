import sharp from 'sharp';
import { FramePacer } from './frame-pacer';
import { jpegSize } from './jpeg-size';
import { videoSize } from './recording';

describe('FramePacer: frames whenever they come, out at a constant rate of wall time', () => {
  it('hands out each slot once, showing the newest frame that came before the slot ended', () => {
    const pacer = new FramePacer(10, 0, 'a', 1_000);
    expect(pacer.tick(99)).toBeUndefined();
    expect(pacer.tick(250)).toEqual({ frame: 'a', count: 2 });
    // Two frames within one slot: the later one is shown.
    expect(pacer.push('b', 260)).toBeUndefined();
    expect(pacer.push('c', 290)).toBeUndefined();
    expect(pacer.push('d', 1_000)).toEqual({ frame: 'c', count: 8 });
    expect(pacer.finish(1_001)).toEqual({ frame: 'd', count: 1 });
    expect([pacer.frames, pacer.seconds]).toEqual([11, 1.1]);
  });

  it('gives at least one frame, and never more than maxSlots', () => {
    expect(new FramePacer(10, 0, 'a', 100).finish(0)).toEqual({ frame: 'a', count: 1 });
    const capped = new FramePacer(5, 0, 'a', 10);
    expect(capped.tick(60_000)).toEqual({ frame: 'a', count: 10 });
    expect(capped.finish(60_000)).toBeUndefined();
  });
});

describe('frame sizes', () => {
  it('reads a JPEG size from its header, and refuses what is not a JPEG', async () => {
    const jpeg = await sharp({ create: { width: 37, height: 81, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const progressive = await sharp({ create: { width: 640, height: 20, channels: 3, background: '#000' } }).jpeg({ progressive: true }).toBuffer();
    expect(jpegSize(jpeg)).toEqual({ width: 37, height: 81 });
    expect(jpegSize(progressive)).toEqual({ width: 640, height: 20 });
    expect(jpegSize(Buffer.from('not a jpeg'))).toBeUndefined();
    expect(jpegSize(jpeg.subarray(0, 10))).toBeUndefined();
  });

  it('scales the video, keeps its longest side within 1280 px and both sides even', () => {
    expect(videoSize({ width: 1170, height: 2532 }, 1)).toEqual({ width: 592, height: 1280 });
    expect(videoSize({ width: 390, height: 844 }, 1)).toEqual({ width: 390, height: 844 });
    expect(videoSize({ width: 390, height: 844 }, 0.5)).toEqual({ width: 196, height: 422 });
    expect(videoSize({ width: 1, height: 1 }, 0.1)).toEqual({ width: 2, height: 2 });
  });
});

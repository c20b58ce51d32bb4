import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { rejectionOf } from '@apex/errors/testing';
import { runOperation, type OperationContext } from '@apex/capability';
import { eventually } from '@apex/testing';
import { RECORDING_OPERATIONS, RecordingService, type RecordingOperationContext } from './index';
import { decodeMp4Frames, meanDifference, readMp4Facts } from './testing';

const WIDTH = 120;
const HEIGHT = 200;

/** A JPEG of one colour with a white square at `square` (so frames differ in shape, not only colour). */
async function frame(rgb: [number, number, number], square: number): Promise<{ jpeg: Buffer; pixels: Buffer }> {
  const box = await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer();
  const image = sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .composite([{ input: box, left: 20 + square, top: 40 + square }])
    .jpeg({ quality: 90 });
  const jpeg = await image.toBuffer();
  const pixels = await sharp(jpeg).removeAlpha().raw().toBuffer();
  return { jpeg, pixels };
}

/** A device stream fed by the test: `push` sends a frame, `end` ends the stream (the device went away). */
function feedableStream(driver: FakeDriver) {
  const queue: Buffer[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: Error | undefined;
  Object.assign(driver, {
    async *stream(signal: AbortSignal): AsyncIterable<Uint8Array> {
      while (!signal.aborted) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (failure) throw failure;
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    },
  });
  return {
    push(jpeg: Buffer) {
      queue.push(jpeg);
      wake?.();
    },
    end(error?: Error) {
      ended = true;
      failure = error;
      wake?.();
    },
  };
}

describe('screen recording (the engine, over a device stream the test feeds, with an injected clock)', () => {
  let dir: string;
  let hub: DeviceHub;
  let driver: FakeDriver;
  let now: number;
  let feed: ReturnType<typeof feedableStream>;
  let service: RecordingService;
  let ctx: RecordingOperationContext;

  const newService = (maxBytes?: number) => new RecordingService({ dir: join(dir, 'recordings'), clock: () => now, tickMs: 20, maxBytes });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-recording-'));
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver();
    feed = feedableStream(driver);
    hub.register({ id: 'phone', name: 'Phone', driver });
    now = 1_000;
    service = newService();
    ctx = { hub, perception: new Perception(hub), recordings: service, operations: RECORDING_OPERATIONS };
  });
  afterEach(async () => {
    await service.close();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (name: string, args: Record<string, unknown>) => runOperation(ctx as OperationContext, name, args, RECORDING_OPERATIONS);
  const progress = async () => (await service.list({ limit: 10 })).recordings.find((r) => r.recording)?.frames ?? -1;

  it('records wall time: a still screen is one frame repeated, a change shows from the slot it came in; the MP4 is H.264 and decodes to the screens', async () => {
    const red = await frame([200, 30, 30], 0);
    const blue = await frame([30, 30, 200], 30);
    feed.push(red.jpeg);
    const started = await run('start_recording', { device: 'phone', fps: 10 });
    expect(started.output).toMatchObject({ device: 'phone', fps: 10, width: WIDTH, height: HEIGHT, maxSeconds: 300 });
    // The encoder's process id, for the bench's CPU figures: a live process while recording, none after.
    const pid = service.encoderPid('phone');
    expect(pid).toEqual(expect.any(Number));
    expect(() => process.kill(pid as number, 0)).not.toThrow();

    // 1 s of red: ten slots, handed out by the ticks while nothing new comes.
    now += 1_000;
    await eventually(async () => (await progress()) === 10, { timeoutMs: 10_000, what: 'the still second to be written' });
    feed.push(blue.jpeg);
    await eventually(async () => (await service.list({ limit: 1 })).recordings[0]?.frames === 10, { timeoutMs: 10_000, what: 'the blue frame to be taken' });
    now += 1_450;
    const stopped = await run('stop_recording', { device: 'phone' });
    // 2.45 s: the slot in progress is shown whole, so 25 frames of 1/10 s.
    expect(stopped.output).toMatchObject({ device: 'phone', frames: 25, seconds: 2.5, endedBy: 'stopped' });
    const id = String(stopped.output.id);
    expect(stopped.output.url).toBe(`/recordings/${id}`);
    expect(service.encoderPid('phone')).toBeUndefined();

    const { path, bytes } = await service.recordingFile(id);
    expect(bytes).toBe(stopped.output.bytes);
    const facts = readMp4Facts(readFileSync(path));
    expect(facts).toMatchObject({ codec: 'avc1', frames: 25, width: WIDTH, height: HEIGHT, moovFirst: true });
    expect(facts.seconds).toBeCloseTo(2.5, 2);

    const decoded = await decodeMp4Frames(path);
    expect(decoded.frames).toHaveLength(25);
    for (const [index, shot] of decoded.frames.entries()) {
      const expected = index < 10 ? red : blue;
      const other = index < 10 ? blue : red;
      expect(meanDifference(shot, expected.pixels)).toBeLessThan(8);
      expect(meanDifference(shot, other.pixels)).toBeGreaterThan(40);
    }
  });

  it('ends itself at maxSeconds with a complete file, which the next stop_recording answers', async () => {
    feed.push((await frame([20, 160, 20], 0)).jpeg);
    await run('start_recording', { device: 'phone', fps: 5, maxSeconds: 2 });
    now += 2_700;
    await eventually(async () => (await service.list({ limit: 1 })).recordings[0]?.recording === false, { timeoutMs: 10_000, what: 'the recording to end' });
    const stopped = await run('stop_recording', { device: 'phone' });
    expect(stopped.output).toMatchObject({ endedBy: 'max_seconds', frames: 10, seconds: 2 });
    const facts = readMp4Facts(readFileSync((await service.recordingFile(String(stopped.output.id))).path));
    expect(facts).toMatchObject({ frames: 10, seconds: 2 });
    // Collected once: a second stop has nothing to answer.
    expect((await rejectionOf(run('stop_recording', { device: 'phone' }))).code).toBe('invalid_argument');
  });

  it.each([
    ['ends', undefined],
    ['fails', new Error('socket closed')],
  ])('when the device stream %s mid-recording, the file is complete and playable', async (_how, error) => {
    const shot = await frame([90, 90, 20], 10);
    feed.push(shot.jpeg);
    await run('start_recording', { device: 'phone', fps: 10 });
    now += 1_200;
    await eventually(async () => (await progress()) === 12, { timeoutMs: 10_000, what: 'frames to be written' });
    feed.end(error);
    await eventually(async () => (await service.list({ limit: 1 })).recordings[0]?.recording === false, { timeoutMs: 10_000, what: 'the recording to end' });
    const stopped = await run('stop_recording', { device: 'phone' });
    expect(stopped.output).toMatchObject({ endedBy: 'device_gone', frames: 12 });
    const { path } = await service.recordingFile(String(stopped.output.id));
    const decoded = await decodeMp4Frames(path);
    expect(decoded.frames).toHaveLength(12);
    expect(meanDifference(decoded.frames[11], shot.pixels)).toBeLessThan(8);
  });

  it('one recording per device: a second start is device_busy and the first goes on', async () => {
    feed.push((await frame([10, 10, 10], 0)).jpeg);
    const first = await run('start_recording', { device: 'phone' });
    const second = await rejectionOf(run('start_recording', { device: 'phone' }));
    expect(second.code).toBe('device_busy');
    expect(second.message).toContain(String(first.output.id));
    now += 500;
    expect((await run('stop_recording', { device: 'phone' })).output).toMatchObject({ id: first.output.id, frames: 5, endedBy: 'stopped' });
  });

  it.each([
    [{ fps: 0 }, 'fps'],
    [{ fps: 31 }, 'fps'],
    [{ fps: 2.5 }, 'fps'],
    [{ scale: 1_000 }, 'scale'],
    [{ scale: 0 }, 'scale'],
    [{ maxSeconds: 0 }, 'maxSeconds'],
    [{ maxSeconds: 3_601 }, 'maxSeconds'],
    [{ colour: true }, ''],
  ])('start_recording refuses %o as invalid_argument before reading the screen', async (args, field) => {
    const error = await rejectionOf(run('start_recording', { device: 'phone', ...args }));
    expect(error.code).toBe('invalid_argument');
    expect(JSON.stringify(error.issues)).toContain(field);
    expect(driver.calls).toHaveLength(0);
  });

  it('a screen that shows no first frame is device_timeout, and the device can be recorded afterwards', async () => {
    await service.close();
    service = new RecordingService({ dir: join(dir, 'recordings'), clock: () => now, tickMs: 20, startTimeoutMs: 200 });
    ctx.recordings = service;
    expect((await rejectionOf(run('start_recording', { device: 'phone' }))).code).toBe('device_timeout');
    feed.push((await frame([1, 2, 3], 0)).jpeg);
    await run('start_recording', { device: 'phone' });
    now += 100;
    expect((await run('stop_recording', { device: 'phone' })).output.frames).toBe(1);
  });

  it('stop_recording with nothing recorded is invalid_argument; unknown and malformed ids are refused apart', async () => {
    expect((await rejectionOf(run('stop_recording', { device: 'phone' }))).code).toBe('invalid_argument');
    expect((await rejectionOf(service.recordingFile('rec-aaaaaaaaaaaaaaaaaaaa'))).code).toBe('recording_not_found');
    expect((await rejectionOf(service.recordingFile('../../etc/passwd'))).code).toBe('invalid_argument');
    expect((await rejectionOf(run('start_recording', { device: 'nope' }))).code).toBe('device_not_found');
  });

  it('keeps the disk bounded: past maxBytes a recording ends and the oldest recordings are removed', async () => {
    await service.close();
    service = newService(1);
    ctx.recordings = service;
    // Noise does not compress: the encoder writes out its first key frames within seconds of video.
    const noise = await sharp(Buffer.from(Array.from({ length: WIDTH * HEIGHT * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    feed.push(noise);
    await run('start_recording', { device: 'phone' });
    now += 60_000;
    // The file passes 1 byte as soon as the encoder writes: the recording ends by itself.
    await eventually(async () => (await service.list({ limit: 1 })).recordings[0]?.recording === false, { timeoutMs: 10_000, what: 'the recording to end' });
    const first = await run('stop_recording', { device: 'phone' });
    expect(first.output.endedBy).toBe('max_bytes');
    feed.push(noise);
    await run('start_recording', { device: 'phone' });
    now += 1_000;
    const second = await run('stop_recording', { device: 'phone' });
    const listed = await run('list_recordings', {});
    expect((listed.output.recordings as { id: string }[]).map((r) => r.id)).toEqual([second.output.id]);
    expect((await rejectionOf(service.recordingFile(String(first.output.id)))).code).toBe('recording_not_found');
  });

  it('list_recordings shows the one in progress and the finished ones, newest first, with their urls', async () => {
    feed.push((await frame([0, 120, 120], 0)).jpeg);
    await run('start_recording', { device: 'phone' });
    now += 300;
    const done = await run('stop_recording', { device: 'phone' });
    feed.push((await frame([0, 120, 120], 10)).jpeg);
    await run('start_recording', { device: 'phone' });
    const listed = (await run('list_recordings', { device: 'phone' })).output as { recordings: Record<string, unknown>[]; total: number };
    expect(listed.total).toBe(2);
    expect(listed.recordings[0]).toMatchObject({ recording: true, device: 'phone' });
    expect(listed.recordings[0].url).toBeUndefined();
    expect(listed.recordings[1]).toMatchObject({ id: done.output.id, recording: false, url: `/recordings/${String(done.output.id)}`, frames: 3 });
    expect((await run('list_recordings', { device: 'other' })).output).toEqual({ recordings: [], total: 0 });
  });
});

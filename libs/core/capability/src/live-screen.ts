import { ApexError } from '@apex/errors';
import { screenChanges, streamScreen, type DeviceHub } from '@apex/hub';
import type { OperationContext } from './define-operation';
import { MAX_SCREEN_VIEWERS_PER_DEVICE } from './limits';
import { SharedFrames } from './shared-frames';
import { encodeScreenshot } from './screenshot-encoding';

/**
 * `device`: the device's own stream (JPEG frames as it sends them: native pixels on an iPhone). `screenshots`:
 * for devices without one, screenshots taken at most 10 times a second and sent only when the screen changed
 * (JPEG, one pixel per point).
 */
export type LiveScreenSource = 'device' | 'screenshots';

export interface LiveScreen {
  deviceId: string;
  source: LiveScreenSource;
  /** The first frame, already read: a device that cannot show its screen has failed before anything is sent. */
  first: Buffer;
  /** The frames after the first, until the signal aborts or the device ends the stream. */
  rest: AsyncGenerator<Buffer>;
}

/** Each device's shared live screen, per hub: one source however many viewers (a WeakMap: no hub is kept alive). */
const feeds = new WeakMap<DeviceHub, Map<string, SharedFrames<LiveScreenSource>>>();

/**
 * The device's screen live, as JPEG frames: its own stream when it has one, else screenshots pushed on
 * change. Every viewer of a device shares one source: one connection to the device's stream, or one
 * screenshot poller through its queue (at most 10 a second however many watch), stopped when the last viewer
 * leaves; at most MAX_SCREEN_VIEWERS_PER_DEVICE viewers at once, `device_busy` beyond. Rejects with the
 * ApexError of the device (unknown, offline, …) before the first frame. A device stream that fails before
 * its first frame gives way to screenshots. Reading ends when `signal` aborts.
 */
export async function openLiveScreen(ctx: OperationContext, device: string | undefined, signal: AbortSignal): Promise<LiveScreen> {
  const deviceId = ctx.hub.resolve(device);
  let devices = feeds.get(ctx.hub);
  if (!devices) feeds.set(ctx.hub, (devices = new Map()));
  let feed = devices.get(deviceId);
  if (!feed?.open) {
    const created: SharedFrames<LiveScreenSource> = new SharedFrames(
      (upstream) => openSource(ctx, deviceId, upstream),
      () => {
        if (devices.get(deviceId) === created) devices.delete(deviceId);
      },
    );
    devices.set(deviceId, (feed = created));
  }
  if (feed.viewerCount >= MAX_SCREEN_VIEWERS_PER_DEVICE) {
    throw new ApexError('device_busy', `Device ${deviceId} already shows its live screen to ${MAX_SCREEN_VIEWERS_PER_DEVICE} viewers, the most it serves at once.`, {
      hint: 'Close another viewer of this device (a dashboard tab or a stream client), then try again.',
    });
  }
  const { kind, first, rest } = await feed.join(signal);
  return { deviceId, source: kind, first, rest };
}

/** The one source of a device's frames: its own stream, or screenshots on change. */
async function openSource(ctx: OperationContext, deviceId: string, signal: AbortSignal): Promise<{ kind: LiveScreenSource; first: Buffer; rest: AsyncGenerator<Buffer> }> {
  if (ctx.hub.supports(deviceId, 'stream')) {
    const frames = asBuffers(streamScreen(ctx.hub, deviceId, signal));
    try {
      const first = await frames.next();
      if (!first.done) return { kind: 'device', first: first.value, rest: frames };
    } catch {
      // Fall through: the screenshots say whether the device itself is reachable.
    }
  }
  const frames = encodedChanges(ctx, deviceId, signal);
  const first = await frames.next();
  if (first.done) throw signal.reason ?? new Error('the live screen ended before its first frame');
  return { kind: 'screenshots', first: first.value, rest: frames };
}

async function* asBuffers(frames: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  for await (const frame of frames) yield Buffer.isBuffer(frame) ? frame : Buffer.from(frame);
}

async function* encodedChanges(ctx: OperationContext, deviceId: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  for await (const shot of screenChanges(ctx.hub, deviceId, signal)) {
    yield (await encodeScreenshot(shot, { format: 'jpeg', resolution: 'points' })).data;
  }
}

import { screenChanges, streamScreen } from '@apex/hub';
import type { OperationContext } from './define-operation';
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

/**
 * The device's screen live, as JPEG frames: its own stream when it has one, else screenshots pushed on
 * change. Rejects with the ApexError of the device (unknown, offline, …) before the first frame. A device
 * stream that fails before its first frame gives way to screenshots. Reading ends when `signal` aborts.
 */
export async function openLiveScreen(ctx: OperationContext, device: string | undefined, signal: AbortSignal): Promise<LiveScreen> {
  const deviceId = ctx.hub.resolve(device);
  if (ctx.hub.supports(deviceId, 'stream')) {
    const frames = asBuffers(streamScreen(ctx.hub, deviceId, signal));
    try {
      const first = await frames.next();
      if (!first.done) return { deviceId, source: 'device', first: first.value, rest: frames };
    } catch {
      // Fall through: the screenshots say whether the device itself is reachable.
    }
  }
  const frames = encodedChanges(ctx, deviceId, signal);
  const first = await frames.next();
  if (first.done) throw signal.reason ?? new Error('the live screen ended before its first frame');
  return { deviceId, source: 'screenshots', first: first.value, rest: frames };
}

async function* asBuffers(frames: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  for await (const frame of frames) yield Buffer.isBuffer(frame) ? frame : Buffer.from(frame);
}

async function* encodedChanges(ctx: OperationContext, deviceId: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  for await (const shot of screenChanges(ctx.hub, deviceId, signal)) {
    yield (await encodeScreenshot(shot, { format: 'jpeg', resolution: 'points' })).data;
  }
}

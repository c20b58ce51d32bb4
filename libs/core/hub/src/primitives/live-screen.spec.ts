import { rejectionOf } from '@apex/errors/testing';
import { DeviceHub } from '../hub/device-hub';
import { FakeDriver } from '../testing';
import { screenChanges, streamScreen } from './index';

/** A fake driver with a stream: each `push` is one frame; `streamSignal` is the signal the hub passed. */
class StreamingDriver extends FakeDriver {
  streamSignal?: AbortSignal;
  private readonly queued: Uint8Array[] = [];
  private wake?: () => void;

  push(frame: string): void {
    this.queued.push(Buffer.from(frame));
    this.wake?.();
  }

  async *stream(signal: AbortSignal): AsyncGenerator<Uint8Array> {
    this.streamSignal = signal;
    signal.addEventListener('abort', () => this.wake?.());
    while (!signal.aborted) {
      const frame = this.queued.shift();
      if (frame) yield frame;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

describe('the live screen primitives', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('read the device stream beside the queue: an action runs while frames flow, and frames flow while an action runs', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new StreamingDriver();
    hub.register({ id: 'phone', driver });
    const controller = new AbortController();
    const frames = streamScreen(hub, 'phone', controller.signal);
    driver.push('a');
    expect(Buffer.from((await frames.next()).value as Uint8Array).toString()).toBe('a');

    let releaseTap: () => void = () => undefined;
    driver.behave('tap', () => new Promise<void>((resolve) => (releaseTap = resolve)));
    const tap = hub.run('phone', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal));
    // The tap holds the queue; the stream does not wait for it.
    driver.push('b');
    expect(Buffer.from((await frames.next()).value as Uint8Array).toString()).toBe('b');
    releaseTap();
    await tap;
    expect(hub.summary('phone').state).toBe('online');

    controller.abort();
    expect((await frames.next()).done).toBe(true);
    expect(driver.streamSignal?.aborted).toBe(true);
  });

  it('ends a stalled stream with device_timeout and aborts the driver call', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new StreamingDriver();
    hub.register({ id: 'phone', driver, actionTimeoutMs: 100, slowActionTimeoutMs: 100 });
    const frames = streamScreen(hub, 'phone', new AbortController().signal);
    const error = await rejectionOf(frames.next());
    expect(error).toMatchObject({ code: 'device_timeout' });
    expect(driver.streamSignal?.aborted).toBe(true);
  });

  it('ends when the hub closes, and is unsupported_operation for a device without a stream', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new StreamingDriver();
    hub.register({ id: 'phone', driver });
    hub.register({ id: 'plain', driver: new FakeDriver() });
    const frames = streamScreen(hub, 'phone', new AbortController().signal);
    const next = frames.next();
    await hub.close();
    expect((await next).done).toBe(true);
    expect(() => streamScreen(hub, 'plain', new AbortController().signal)).toThrow(expect.objectContaining({ code: 'unsupported_operation' }));
  });

  it('screenChanges sends a screenshot only when its bytes differ from the last one', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new FakeDriver();
    hub.register({ id: 'phone', driver });
    const pngs = ['A', 'A', 'B', 'B', 'C'].map((text) => Buffer.from(text));
    let taken = 0;
    driver.behave('screenshot', async () => ({ png: pngs[Math.min(taken++, pngs.length - 1)], width: 3, height: 3, scale: 1 }));
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const shot of screenChanges(hub, 'phone', controller.signal)) {
      seen.push(shot.png.toString());
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toEqual(['A', 'B', 'C']);
    expect(taken).toBe(5);
  });
});

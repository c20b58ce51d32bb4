import { SharedFrames } from './shared-frames';

/** A source a test feeds by hand: `push` a frame, `end` or `fail` it; records the signal it was opened with. */
class HandSource {
  opened = 0;
  signal?: AbortSignal;
  private queued: Buffer[] = [];
  private wake?: () => void;
  private outcome?: { error?: Error };

  readonly open = async (signal: AbortSignal) => {
    this.opened += 1;
    this.signal = signal;
    signal.addEventListener('abort', () => this.wake?.());
    const frames = this.frames(signal);
    const first = await frames.next();
    if (first.done) throw new Error('no first frame');
    return { kind: 'device' as const, first: first.value, rest: frames };
  };

  push(text: string): void {
    this.queued.push(Buffer.from(text));
    this.wake?.();
  }

  end(error?: Error): void {
    this.outcome = { error };
    this.wake?.();
  }

  private async *frames(signal: AbortSignal): AsyncGenerator<Buffer> {
    while (!signal.aborted) {
      const frame = this.queued.shift();
      if (frame) yield frame;
      else if (this.outcome) {
        if (this.outcome.error) throw this.outcome.error;
        return;
      } else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

const text = (frame: IteratorResult<Buffer> | Buffer) => (Buffer.isBuffer(frame) ? frame : (frame.value as Buffer)).toString();

describe('SharedFrames: one source, many viewers', () => {
  it('opens the source once for every viewer, gives each the newest frame, and a late viewer starts at the newest', async () => {
    const source = new HandSource();
    const stopped = jest.fn();
    const feed = new SharedFrames(source.open, stopped);
    const a = new AbortController();
    const b = new AbortController();
    source.push('1');
    const [first, second] = await Promise.all([feed.join(a.signal), feed.join(b.signal)]);
    expect([first.kind, text(first.first), text(second.first)]).toEqual(['device', '1', '1']);
    source.push('2');
    expect([text(await first.rest.next()), text(await second.rest.next())]).toEqual(['2', '2']);
    // Frames that came while a viewer was not reading: it gets the newest one, not a backlog.
    source.push('3');
    source.push('4');
    await new Promise((resolve) => setImmediate(resolve));
    expect(text(await first.rest.next())).toBe('4');
    const late = await feed.join(new AbortController().signal);
    expect(text(late.first)).toBe('4');
    expect(source.opened).toBe(1);
    expect(feed.viewerCount).toBe(3);
    expect(stopped).not.toHaveBeenCalled();
  });

  it('keeps the source for the others when one viewer leaves, and stops it when the last one leaves', async () => {
    const source = new HandSource();
    const stopped = jest.fn();
    const feed = new SharedFrames(source.open, stopped);
    source.push('1');
    const a = new AbortController();
    const b = new AbortController();
    const [first, second] = await Promise.all([feed.join(a.signal), feed.join(b.signal)]);
    a.abort();
    expect(await first.rest.next()).toEqual({ done: true, value: undefined });
    expect(feed.viewerCount).toBe(1);
    source.push('2');
    expect(text(await second.rest.next())).toBe('2');
    expect(source.signal?.aborted).toBe(false);
    b.abort();
    expect(await second.rest.next()).toEqual({ done: true, value: undefined });
    expect(source.signal?.aborted).toBe(true);
    expect(stopped).toHaveBeenCalledTimes(1);
    expect(feed.open).toBe(false);
  });

  it("ends every viewer's frames with the source's failure, and a failure before the first frame rejects each join", async () => {
    const source = new HandSource();
    const feed = new SharedFrames(source.open, () => undefined);
    source.push('1');
    const viewers = await Promise.all([feed.join(new AbortController().signal), feed.join(new AbortController().signal)]);
    source.end(new Error('the device went away'));
    for (const viewer of viewers) await expect(viewer.rest.next()).rejects.toThrow('the device went away');
    expect(feed.open).toBe(false);

    const broken = new HandSource();
    const stopped = jest.fn();
    const failing = new SharedFrames(broken.open, stopped);
    const joins = [failing.join(new AbortController().signal), failing.join(new AbortController().signal)];
    broken.end(new Error('offline'));
    const outcomes = await Promise.allSettled(joins);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'joined'))).toEqual(['offline', 'offline']);
    expect(stopped).toHaveBeenCalledTimes(1);
    expect(failing.viewerCount).toBe(0);
  });

  it('lets a viewer that gives up before the first frame leave, stopping a source nobody watches', async () => {
    const source = new HandSource();
    const feed = new SharedFrames(source.open, () => undefined);
    const gaveUp = new AbortController();
    const join = feed.join(gaveUp.signal);
    gaveUp.abort(new Error('client left'));
    await expect(join).rejects.toThrow('client left');
    expect(feed.viewerCount).toBe(0);
    expect(source.signal?.aborted).toBe(true);
  });
});

import type { DeviceStream } from './device-stream';

/**
 * Reads a stream's incoming bytes in exact sizes (the `sync:` service's requests), like adbd's `ReadFdExactly`.
 * Bytes count as consumed once handed out, so the host is held back (no OKAY) while a request is not read.
 */
export class StreamInput {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private waiter: { n: number; resolve: (b: Buffer | undefined) => void } | undefined;

  constructor(private readonly stream: DeviceStream) {
    stream.onData = (chunk) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.wake();
    };
    stream.signal.addEventListener('abort', () => this.wake(), { once: true });
  }

  /** Exactly `n` bytes, or undefined when the stream ends first. */
  read(n: number): Promise<Buffer | undefined> {
    if (this.waiter) throw new Error('one read at a time');
    return new Promise((resolve) => {
      this.waiter = { n, resolve };
      this.wake();
    });
  }

  private wake(): void {
    const w = this.waiter;
    if (!w) return;
    if (this.buffered >= w.n) {
      this.waiter = undefined;
      w.resolve(this.take(w.n));
    } else if (this.stream.isClosed) {
      this.waiter = undefined;
      w.resolve(undefined);
    }
  }

  private take(n: number): Buffer {
    const parts: Buffer[] = [];
    let need = n;
    while (need > 0) {
      const chunk = this.chunks[0];
      const used = Math.min(chunk.length, need);
      parts.push(chunk.subarray(0, used));
      need -= used;
      if (used === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(used);
    }
    this.buffered -= n;
    this.stream.consumed(n);
    return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
  }
}

/** An async-iterable queue of chunks (a shell's stdin); each chunk counts as consumed when the reader takes it. */
export class ChunkQueue implements AsyncIterable<Uint8Array> {
  private readonly items: Buffer[] = [];
  private ended = false;
  private wakeReader: (() => void) | undefined;

  constructor(private readonly onConsumed: (n: number) => void) {}

  push(chunk: Buffer): void {
    if (this.ended) {
      this.onConsumed(chunk.length);
      return;
    }
    this.items.push(chunk);
    this.wakeReader?.();
  }

  end(): void {
    this.ended = true;
    this.wakeReader?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        this.onConsumed(next.length);
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
      this.wakeReader = undefined;
    }
  }
}

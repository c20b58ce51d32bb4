import type { Socket } from 'node:net';

/** Why a conversation with the adb server ended early; the driver turns each into an ApexError. */
export type AdbTransportFailure = 'refused' | 'connect_timeout' | 'closed' | 'aborted' | 'protocol' | 'too_large';

export class AdbTransportError extends Error {
  constructor(
    readonly kind: AdbTransportFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AdbTransportError';
  }
}

/**
 * Reads exact byte counts from a socket as they arrive (the smart-socket replies and shell-protocol packets
 * are length-prefixed). Ends with an AdbTransportError when the socket ends early, errs, or the signal aborts:
 * then the socket is destroyed, which makes the server close the stream on the device too.
 */
export class SocketReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(
    readonly socket: Socket,
    signal: AbortSignal,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      // Backpressure: stop reading while a large reply waits for its reader.
      if (this.buffered > 4 * 1024 * 1024 && !this.wake) socket.pause();
      this.notify();
    });
    socket.on('end', () => {
      this.ended = true;
      this.notify();
    });
    socket.on('close', () => {
      this.ended = true;
      this.notify();
    });
    socket.on('error', (error) => {
      this.failure ??= error;
      this.notify();
    });
    const onAbort = (): void => {
      this.failure ??= new AdbTransportError('aborted', 'the call was cancelled');
      socket.destroy();
      this.notify();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => signal.removeEventListener('abort', onAbort));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async waitForData(): Promise<void> {
    if (this.failure) throw this.failure instanceof AdbTransportError ? this.failure : new AdbTransportError('closed', this.failure.message);
    if (this.ended) throw new AdbTransportError('closed', 'the connection ended before the reply was complete');
    this.socket.resume();
    await new Promise<void>((resolve) => (this.wake = resolve));
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return head;
  }

  /** Exactly `n` bytes. */
  async read(n: number): Promise<Buffer> {
    while (this.buffered < n) await this.waitForData();
    return this.take(n);
  }

  /** Everything until the other side closes, at most `limit` bytes (more fails with `too_large`). */
  async readToEnd(limit: number): Promise<Buffer> {
    for (;;) {
      if (this.buffered > limit) {
        this.socket.destroy();
        throw new AdbTransportError('too_large', `the reply passed ${limit} bytes`);
      }
      if (this.ended && !this.failure) return this.take(this.buffered);
      await this.waitForData();
    }
  }

  /** Whatever arrives, chunk by chunk, until the other side closes. */
  async *chunksUntilEnd(): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.buffered > 0) {
        yield this.take(this.buffered);
        continue;
      }
      if (this.ended && !this.failure) return;
      await this.waitForData();
    }
  }
}

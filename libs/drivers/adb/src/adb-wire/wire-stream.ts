import { AdbTransportError } from '../adb-server/socket-reader';
import type { ByteSink, ByteSource } from '../shell-protocol';

/** What a stream sends on its connection. */
export interface StreamPackets {
  /** WRTE with this payload (at most `maxPayload()` bytes). */
  write(payload: Buffer): void;
  /** CLSE. */
  close(): void;
  /** The largest payload the connection carries (agreed in CNXN). */
  maxPayload(): number;
}

/**
 * The host end of one ADB stream after the device's OKAY to our OPEN: the payloads of the device's WRTEs in
 * order, read as a ByteSource. Each WRTE is acknowledged at once (the reply is held in memory, bounded by the
 * reader's limit). Our own writes (a command's stdin, sync requests) go one WRTE at a time, the next once the
 * device's OKAY acknowledged the last (protocol.txt's flow control). `close()` sends CLSE — the device then ends
 * the command — and fails the reader and any writer.
 */
export class WireStream implements ByteSource, ByteSink {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private failure: AdbTransportError | undefined;
  private wake: (() => void) | undefined;
  /** A WRTE of ours awaits the device's OKAY. */
  private unacknowledged = false;
  private wakeWriter: (() => void) | undefined;

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    private readonly packets: StreamPackets,
    signal: AbortSignal,
  ) {
    if (signal.aborted) this.abort();
    else signal.addEventListener('abort', () => this.abort(), { once: true });
  }

  /** A WRTE's payload arrived. */
  push(payload: Buffer): void {
    if (this.ended || this.failure) return;
    this.chunks.push(payload);
    this.buffered += payload.length;
    this.notify();
  }

  /** The device's OKAY to our last WRTE. */
  acknowledge(): void {
    this.unacknowledged = false;
    this.notify();
  }

  /** The device closed the stream (its CLSE): what arrived can still be read. */
  end(): void {
    this.ended = true;
    this.notify();
  }

  /** The connection is gone. */
  fail(error: AdbTransportError): void {
    this.failure ??= error;
    this.notify();
  }

  /** Our side gives up: CLSE to the device (it aborts the command), then the reader fails. */
  close(error = new AdbTransportError('aborted', 'the call was cancelled')): void {
    if (!this.ended && !this.failure) this.packets.close();
    this.fail(error);
  }

  private abort(): void {
    this.close();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
    const wakeWriter = this.wakeWriter;
    this.wakeWriter = undefined;
    wakeWriter?.();
  }

  /**
   * Sends `chunk` as WRTEs, each once the device acknowledged the previous one. Once the device has closed the
   * stream it reads no more: the rest is dropped, and its answer (already arrived) is read next.
   */
  async write(chunk: Uint8Array): Promise<void> {
    const max = this.packets.maxPayload();
    for (let at = 0; at < chunk.length; at += max) {
      while (this.unacknowledged && !this.ended && !this.failure) await new Promise<void>((resolve) => (this.wakeWriter = resolve));
      if (this.failure) throw this.failure;
      if (this.ended) return;
      this.unacknowledged = true;
      this.packets.write(Buffer.from(chunk.subarray(at, at + max)));
    }
  }


  private async waitForData(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.ended) throw new AdbTransportError('closed', 'the stream ended before the reply was complete');
    await new Promise<void>((resolve) => (this.wake = resolve));
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return all.subarray(0, n);
  }

  /**
   * Whatever arrives, chunk by chunk, until the device closes the stream. Every WRTE is acknowledged at once, so
   * a device sending faster than the reader reads is stopped once more than `limit` bytes wait (`too_large`).
   */
  async *chunksUntilEnd(limit: number): AsyncGenerator<Buffer> {
    for (;;) {
      if (this.buffered > limit) {
        const error = new AdbTransportError('too_large', `more than ${limit} bytes waited to be read`);
        this.close(error);
        throw error;
      }
      if (this.buffered > 0) {
        yield this.take(this.buffered);
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return;
      await this.waitForData();
    }
  }

  async read(n: number): Promise<Buffer> {
    while (this.buffered < n) await this.waitForData();
    return this.take(n);
  }

  async readToEnd(limit: number): Promise<Buffer> {
    for (;;) {
      if (this.buffered > limit) {
        const error = new AdbTransportError('too_large', `the reply passed ${limit} bytes`);
        this.close(error);
        throw error;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return this.take(this.buffered);
      await this.waitForData();
    }
  }
}

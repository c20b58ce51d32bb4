import { A_CLSE, A_OKAY, A_WRTE, ProtocolError, type Packet } from './packet';

/** What a stream needs from its connection. */
export interface StreamTransport {
  send(packet: Packet): void;
  /** The negotiated max payload: no WRTE is larger. */
  maxPayload(): number;
  /** False while the connection's socket has too much unsent: WRTEs wait for `resume()`. */
  canWrite(): boolean;
  /** Forgets the stream (after CLSE either way). */
  release(stream: DeviceStream): void;
}

export interface StreamLimits {
  /** Bytes queued for the host before the stream is cut (shell output has no backpressure of its own). */
  maxQueuedOutput: number;
  /** Bytes received but not yet consumed by the service before we hold back our OKAY. */
  inboundHighWater: number;
}

/**
 * The device end of one ADB stream (`OPEN` → `OKAY` … `CLSE`), with the pre-delayed-ack flow control of
 * `protocol.txt`: one WRTE in flight until the host's OKAY, and our OKAY to the host's WRTE held back while the
 * service has not consumed what it already has.
 */
export class DeviceStream {
  private readonly outbox: Buffer[] = [];
  private queued = 0;
  private inFlight = false;
  private ending = false;
  private closed = false;
  private unconsumed = 0;
  private owesOkay = false;
  private drainWaiters: Array<{ lowWater: number; resolve: () => void }> = [];
  private readonly abortController = new AbortController();

  /** Bytes from the host (the payloads of its WRTEs), in order. The service must call `consumed(n)` for them. */
  onData: (chunk: Buffer) => void = (chunk) => this.consumed(chunk.length);
  /** The stream ended (host CLSE, connection lost, or our own close). */
  readonly signal: AbortSignal = this.abortController.signal;

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    private readonly transport: StreamTransport,
    private readonly limits: StreamLimits,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues bytes for the host. Past the output limit the stream is closed (the command's output is cut). */
  write(data: Uint8Array): void {
    if (this.closed || this.ending || data.length === 0) return;
    if (this.queued + data.length > this.limits.maxQueuedOutput) {
      this.close();
      return;
    }
    this.outbox.push(Buffer.from(data)); // a copy: the caller may reuse its buffer
    this.queued += data.length;
    this.pump();
  }

  /** Resolves once at most `lowWater` bytes wait to be sent (or the stream closed): backpressure for sync/tcp. */
  whenDrained(lowWater = 0): Promise<void> {
    if (this.closed || this.queued <= lowWater) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push({ lowWater, resolve }));
  }

  /** Sends what is queued, then CLSE. */
  end(): void {
    if (this.closed || this.ending) return;
    this.ending = true;
    this.pump();
  }

  /** CLSE now, dropping what is queued. */
  close(): void {
    if (this.closed) return;
    this.transport.send({ command: A_CLSE, arg0: this.localId, arg1: this.remoteId, payload: Buffer.alloc(0) });
    this.teardown();
  }

  /** The service has used `n` of the bytes it was given; our OKAY goes out once little enough is pending. */
  consumed(n: number): void {
    this.unconsumed = Math.max(0, this.unconsumed - n);
    if (this.owesOkay && !this.closed && this.unconsumed <= this.limits.inboundHighWater) {
      this.owesOkay = false;
      this.sendOkay();
    }
  }

  // ---- called by the connection ----

  handleOkay(): void {
    if (this.closed) return;
    this.inFlight = false;
    this.pump();
  }

  handleWrite(payload: Buffer): void {
    if (this.closed) return;
    // protocol.txt: a WRITE may not be sent until a READY answers the previous one.
    if (this.owesOkay) throw new ProtocolError(`WRTE on stream ${this.localId} before our OKAY`);
    this.unconsumed += payload.length;
    if (this.unconsumed <= this.limits.inboundHighWater) this.sendOkay();
    else this.owesOkay = true;
    if (payload.length > 0) this.onData(payload);
  }

  /** The host closed the stream, or the connection is gone: no CLSE back (protocol.txt). */
  handleRemoteClose(): void {
    if (!this.closed) this.teardown();
  }

  private sendOkay(): void {
    this.transport.send({ command: A_OKAY, arg0: this.localId, arg1: this.remoteId, payload: Buffer.alloc(0) });
  }

  /** The connection's socket drained: send what waits. */
  resume(): void {
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    if (!this.inFlight && this.queued > 0 && this.transport.canWrite()) {
      const chunk = this.takeOutput(this.transport.maxPayload());
      this.inFlight = true;
      this.transport.send({ command: A_WRTE, arg0: this.localId, arg1: this.remoteId, payload: chunk });
      this.notifyDrain();
    }
    if (this.ending && this.queued === 0) this.close();
  }

  private takeOutput(max: number): Buffer {
    const first = this.outbox[0];
    if (first.length <= max) {
      this.outbox.shift();
      this.queued -= first.length;
      // Coalesce small writes into one WRTE.
      if (first.length < max && this.outbox.length > 0) {
        const parts = [first];
        let size = first.length;
        while (this.outbox.length > 0 && size < max) {
          const next = this.outbox[0];
          const used = Math.min(next.length, max - size);
          parts.push(next.subarray(0, used));
          size += used;
          this.queued -= used;
          if (used === next.length) this.outbox.shift();
          else this.outbox[0] = next.subarray(used);
        }
        return Buffer.concat(parts, size);
      }
      return first;
    }
    this.outbox[0] = first.subarray(max);
    this.queued -= max;
    return first.subarray(0, max);
  }

  private notifyDrain(): void {
    const waiting = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiting) {
      if (this.closed || this.queued <= w.lowWater) w.resolve();
      else this.drainWaiters.push(w);
    }
  }

  private teardown(): void {
    this.closed = true;
    this.outbox.length = 0;
    this.queued = 0;
    this.notifyDrain();
    this.abortController.abort();
    this.transport.release(this);
  }
}

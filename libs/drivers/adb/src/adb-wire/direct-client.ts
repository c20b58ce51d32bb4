import { MAX_REPLY_BYTES, readShellResult, writeAll, type ShellResult } from '../shell-protocol';
import { splitLines } from '../line-splitter';
import { pushOverSync } from '../sync-protocol';
import type { AdbKey } from './adb-key';
import { WireConnection } from './wire-connection';

export interface DirectClientOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** This computer's key, loaded the first time a phone asks for authentication. */
  key?: () => Promise<AdbKey>;
}

/**
 * A phone's adbd spoken to directly over TCP, with no adb server: one connection, kept and shared by every call
 * (each call is a stream of its own, so calls never wait for one another on the wire), opened again after it
 * dropped. A call's signal closes its stream (CLSE: the phone ends the command) and never the connection.
 */
export class DirectClient {
  private connection: Promise<WireConnection> | undefined;

  constructor(private readonly options: DirectClientOptions) {}

  /** The live connection, or one new connection that every caller arriving meanwhile shares. */
  private async connected(signal: AbortSignal): Promise<WireConnection> {
    for (;;) {
      const pending = this.connection;
      if (pending) {
        const current = await pending.catch(() => undefined);
        if (current && !current.isClosed) return current;
        // Another caller may have started the next connection while this one waited: use that one.
        if (this.connection !== pending) continue;
      }
      const opening = WireConnection.open(this.options, signal);
      this.connection = opening;
      opening.catch(() => {
        if (this.connection === opening) this.connection = undefined;
      });
      return opening;
    }
  }

  /** The live connection, if any (for tests and probes). */
  async current(): Promise<WireConnection | undefined> {
    return this.connection?.catch(() => undefined);
  }

  async shell(command: string, signal: AbortSignal): Promise<ShellResult> {
    const stream = await (await this.connected(signal)).openStream(`shell,v2,raw:${command}`, signal);
    try {
      return await readShellResult(stream);
    } finally {
      stream.close();
    }
  }

  async exec(command: string, signal: AbortSignal): Promise<Buffer> {
    const stream = await (await this.connected(signal)).openStream(`exec:${command}`, signal);
    try {
      return await stream.readToEnd(MAX_REPLY_BYTES);
    } finally {
      stream.close();
    }
  }

  /** `exec:` read line by line as the output arrives (`line-splitter.ts`); the signal or the reader giving up closes the stream. */
  async *execLines(command: string, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string> {
    const stream = await (await this.connected(signal)).openStream(`exec:${command}`, signal);
    try {
      yield* splitLines(stream.chunksUntilEnd(MAX_REPLY_BYTES), signal, maxLineBytes);
    } finally {
      stream.close();
    }
  }

  /** `exec:` with `input` written to the command's stdin (each WRTE acknowledged before the next), then the reply. */
  async execWithInput(command: string, input: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
    const stream = await (await this.connected(signal)).openStream(`exec:${command}`, signal);
    try {
      await writeAll(stream, input);
      return await stream.readToEnd(MAX_REPLY_BYTES);
    } finally {
      stream.close();
    }
  }

  /** Pushes a file over a `sync:` stream (`sync-protocol.ts`). */
  async push(remotePath: string, mode: number, data: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
    const stream = await (await this.connected(signal)).openStream('sync:', signal);
    try {
      await pushOverSync(stream, stream, remotePath, mode, data);
    } finally {
      stream.close();
    }
  }

  /** Drops the connection (streams in flight fail). */
  async close(): Promise<void> {
    (await this.current())?.close();
    this.connection = undefined;
  }
}

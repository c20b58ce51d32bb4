import { AdbTransportError } from './adb-server/socket-reader';

/** What a stream's reply is read from: a socket to the adb server, or one stream of a direct connection. */
export interface ByteSource {
  /** Exactly `n` bytes (fails when the stream ends first). */
  read(n: number): Promise<Buffer>;
  /** Everything until the other side closes, at most `limit` bytes. */
  readToEnd(limit: number): Promise<Buffer>;
}

/** What a stream's input is written to, with backpressure: resolves once the bytes were taken. */
export interface ByteSink {
  write(chunk: Uint8Array): Promise<void>;
}

/** Writes every chunk of `input`, each once the previous one was taken. */
export async function writeAll(sink: ByteSink, input: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const chunk of input) await sink.write(chunk);
}

export interface ShellResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** Shell protocol packet ids (AOSP shell_protocol.h `ShellProtocol::Id`). */
const SHELL_STDOUT = 1;
const SHELL_STDERR = 2;
const SHELL_EXIT = 3;

/** Bound on one reply held in memory (a 4K screen's PNG is well under this). */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * A `shell,v2,raw:` reply: 5-byte headers (id, u32le length) then data; stdout and stderr apart, and the exit
 * code in the EXIT packet.
 */
export async function readShellResult(source: ByteSource): Promise<ShellResult> {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let total = 0;
  for (;;) {
    const header = await source.read(5);
    const id = header[0];
    const length = header.readUInt32LE(1);
    total += length;
    if (total > MAX_REPLY_BYTES) throw new AdbTransportError('too_large', `the reply passed ${MAX_REPLY_BYTES} bytes`);
    const data = await source.read(length);
    if (id === SHELL_STDOUT) stdout.push(data);
    else if (id === SHELL_STDERR) stderr.push(data);
    else if (id === SHELL_EXIT) return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: data[0] ?? 0 };
  }
}

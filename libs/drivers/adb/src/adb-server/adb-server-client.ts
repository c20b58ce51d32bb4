import type { Socket } from 'node:net';
import { MAX_REPLY_BYTES, readShellResult, writeAll, type ByteSink, type ShellResult } from '../shell-protocol';
import { pushOverSync } from '../sync-protocol';
import { splitLines } from '../line-splitter';
import { connectTcp } from '../tcp-connect';
import { parseDeviceList, type AdbDeviceEntry } from './device-list';
import { AdbTransportError, SocketReader } from './socket-reader';

/*
 * The host side of the adb server's "smart socket" protocol (AOSP packages/modules/adb: OVERVIEW.TXT,
 * SERVICES.TXT, protocol.txt; shell_protocol.h). Each request is 4 hex digits of length + the service name;
 * the server answers OKAY, or FAIL + 4 hex digits of length + a message. `host:transport:SERIAL` switches the
 * socket to one device; the next request then opens a service on the device (`shell,v2,raw:CMD`, `exec:CMD`)
 * and the socket carries that stream until either side closes it. One TCP connection per call, as the adb
 * command-line client does: the server keeps the device's transport open between calls.
 */

export interface AdbServerAddress {
  host: string;
  port: number;
}

/** The server (or the device through it) refused a request: its own message, e.g. "device 'X' not found". */
export class AdbServerFailure extends Error {
  constructor(
    readonly service: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdbServerFailure';
  }
}

function encodeRequest(service: string): Buffer {
  const body = Buffer.from(service, 'utf8');
  if (body.length > 0xffff) throw new AdbTransportError('too_large', 'the request is too long');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'ascii'), body]);
}

export class AdbServerClient {
  constructor(
    readonly address: AdbServerAddress,
    private readonly connectTimeoutMs: number,
  ) {}

  /** A TCP connection to the server, bounded by the connect timeout and the signal. */
  private open(signal: AbortSignal): Promise<Socket> {
    return connectTcp({ ...this.address, connectTimeoutMs: this.connectTimeoutMs, peer: 'the server' }, signal);
  }

  private static async status(reader: SocketReader, service: string): Promise<void> {
    const status = (await reader.read(4)).toString('latin1');
    if (status === 'OKAY') return;
    if (status === 'FAIL') throw new AdbServerFailure(service, await AdbServerClient.lengthPrefixed(reader));
    throw new AdbTransportError('protocol', `unexpected reply ${JSON.stringify(status)} to ${service.split(':')[0]}`);
  }

  private static async lengthPrefixed(reader: SocketReader): Promise<string> {
    const length = parseInt((await reader.read(4)).toString('latin1'), 16);
    if (!Number.isFinite(length)) throw new AdbTransportError('protocol', 'unreadable length');
    return (await reader.read(length)).toString('utf8');
  }

  /** Sends the requests in order, each answered OKAY; the reader then holds what follows the last one. */
  private async request(services: string[], signal: AbortSignal): Promise<SocketReader> {
    const socket = await this.open(signal);
    const reader = new SocketReader(socket, signal);
    try {
      for (const service of services) {
        socket.write(encodeRequest(service));
        await AdbServerClient.status(reader, service);
      }
      return reader;
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }

  /** A host service whose OKAY carries a length-prefixed text (`host:version`, `host:connect:…`, `host-serial:…:get-state`). */
  async hostQuery(service: string, signal: AbortSignal): Promise<string> {
    const reader = await this.request([service], signal);
    try {
      return await AdbServerClient.lengthPrefixed(reader);
    } finally {
      reader.socket.destroy();
    }
  }

  /**
   * The devices the server knows, now and each time the list changes (`host:track-devices-l`: one length-prefixed
   * list per change, the first at once), until the signal aborts or the server goes away.
   */
  async *trackDevices(signal: AbortSignal): AsyncGenerator<AdbDeviceEntry[]> {
    const reader = await this.request(['host:track-devices-l'], signal);
    try {
      for (;;) yield parseDeviceList(await AdbServerClient.lengthPrefixed(reader));
    } finally {
      reader.socket.destroy();
    }
  }

  /**
   * Runs a command through the shell protocol (`shell,v2,raw:`): stdout and stderr apart, and the exit code.
   * The signal ends it: the socket closes, the server closes the device's stream, adbd ends the command.
   */
  async shell(serial: string, command: string, signal: AbortSignal): Promise<ShellResult> {
    const reader = await this.request([`host:transport:${serial}`, `shell,v2,raw:${command}`], signal);
    try {
      return await readShellResult(reader);
    } finally {
      reader.socket.destroy();
    }
  }

  /**
   * `exec:` with bytes for the command's stdin (`cmd package install -S SIZE` reads the APK there, as the adb
   * client streams it): the input is written with backpressure, then the reply read until the device closes.
   */
  async execWithInput(serial: string, command: string, input: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
    const reader = await this.request([`host:transport:${serial}`, `exec:${command}`], signal);
    try {
      await writeAll(socketSink(reader.socket, signal), input);
      return await reader.readToEnd(MAX_REPLY_BYTES);
    } finally {
      reader.socket.destroy();
    }
  }

  /** Pushes a file over `sync:` (`sync-protocol.ts`); the device's refusal is an AdbServerFailure with its reason. */
  async push(serial: string, remotePath: string, mode: number, data: AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
    const reader = await this.request([`host:transport:${serial}`, 'sync:'], signal);
    try {
      await pushOverSync(socketSink(reader.socket, signal), reader, remotePath, mode, data);
    } finally {
      reader.socket.destroy();
    }
  }

  /**
   * Runs a command with raw output (`exec:`) and yields its output line by line, as it arrives, until the
   * command ends or the signal aborts (the socket closes, which ends the command). A line longer than
   * `maxLineBytes` is cut there (the rest of it is skipped): memory stays bounded whatever the device sends.
   */
  async *execLines(serial: string, command: string, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string> {
    const reader = await this.request([`host:transport:${serial}`, `exec:${command}`], signal);
    try {
      yield* splitLines(reader.chunksUntilEnd(), signal, maxLineBytes);
    } finally {
      reader.socket.destroy();
    }
  }

  /** Runs a command with raw output (`exec:`): every byte as the command wrote it, no exit code. */
  async exec(serial: string, command: string, signal: AbortSignal): Promise<Buffer> {
    const reader = await this.request([`host:transport:${serial}`, `exec:${command}`], signal);
    try {
      return await reader.readToEnd(MAX_REPLY_BYTES);
    } finally {
      reader.socket.destroy();
    }
  }
}

/** Writes, waiting for the socket to drain; the signal (or a closed socket) ends the wait with an error. */
async function writeChunk(socket: Socket, chunk: Uint8Array, signal: AbortSignal): Promise<void> {
  if (socket.destroyed) throw new AdbTransportError(signal.aborted ? 'aborted' : 'closed', 'the connection closed while sending');
  if (socket.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      socket.off('error', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
    socket.on('error', done);
  });
  if (socket.destroyed) throw new AdbTransportError(signal.aborted ? 'aborted' : 'closed', 'the connection closed while sending');
}

/** The socket as the input of a stream: each write waits for the socket to drain. */
function socketSink(socket: Socket, signal: AbortSignal): ByteSink {
  return { write: (chunk) => writeChunk(socket, chunk, signal) };
}

import { connect, type Socket } from 'node:net';
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

export interface ShellResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** Shell protocol packet ids (shell_protocol.h `ShellProtocol::Id`). */
const SHELL_STDOUT = 1;
const SHELL_STDERR = 2;
const SHELL_EXIT = 3;

/** Bound on one reply held in memory (a 4K screen's PNG is well under this). */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

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
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new AdbTransportError('aborted', 'the call was cancelled'));
        return;
      }
      const socket = connect({ host: this.address.host, port: this.address.port });
      socket.setNoDelay(true);
      const done = (error?: AdbTransportError): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.off('error', onError);
        socket.off('connect', onConnect);
        if (error) {
          socket.destroy();
          reject(error);
        } else resolve(socket);
      };
      const onConnect = (): void => done();
      const onError = (error: NodeJS.ErrnoException): void =>
        done(new AdbTransportError(error.code === 'ECONNREFUSED' ? 'refused' : 'closed', error.message));
      const onAbort = (): void => done(new AdbTransportError('aborted', 'the call was cancelled'));
      const timer = setTimeout(() => done(new AdbTransportError('connect_timeout', 'no connection to the server in time')), this.connectTimeoutMs);
      socket.once('connect', onConnect);
      socket.once('error', onError);
      signal.addEventListener('abort', onAbort, { once: true });
    });
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
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let total = 0;
    try {
      for (;;) {
        const header = await reader.read(5);
        const id = header[0];
        const length = header.readUInt32LE(1);
        total += length;
        if (total > MAX_REPLY_BYTES) throw new AdbTransportError('too_large', `the reply passed ${MAX_REPLY_BYTES} bytes`);
        const data = await reader.read(length);
        if (id === SHELL_STDOUT) stdout.push(data);
        else if (id === SHELL_STDERR) stderr.push(data);
        else if (id === SHELL_EXIT) return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode: data[0] ?? 0 };
      }
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
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let skipping = false;
    try {
      for await (const chunk of reader.chunksUntilEnd()) {
        let from = 0;
        for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
          // A chunk holds many lines: stop between two of them once the reader gives up.
          if (signal.aborted) throw new AdbTransportError('aborted', 'the call was cancelled');
          if (!skipping) pending.push(chunk.subarray(from, Math.min(nl, from + Math.max(0, maxLineBytes - pendingBytes))));
          yield Buffer.concat(pending).toString('utf8').replace(/\r$/, '');
          pending = [];
          pendingBytes = 0;
          skipping = false;
          from = nl + 1;
        }
        if (from < chunk.length && !skipping) {
          const rest = chunk.subarray(from, from + Math.max(0, maxLineBytes - pendingBytes));
          pending.push(Buffer.from(rest));
          pendingBytes += rest.length;
          if (pendingBytes >= maxLineBytes) skipping = true;
        }
      }
      if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
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

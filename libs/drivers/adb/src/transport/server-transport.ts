import { AdbServerClient, AdbServerFailure, type AdbServerAddress } from '../adb-server/adb-server-client';
import type { ShellResult } from '../shell-protocol';
import { sleep } from '../sleep';
import type { AdbTransport } from './adb-transport';

const POLL_MS = 100;

function unknownDevice(error: unknown): boolean {
  return error instanceof AdbServerFailure && /not found|no devices|no emulators/i.test(error.message);
}

/**
 * A phone behind an adb server: one TCP connection to the server per call, as the adb client does (the server
 * keeps the phone's transport). `serial` is the phone as the server lists it; for a phone given by `HOST:PORT`
 * (`connectTo`), the server is asked to connect to it when it does not know it (again after a server restart).
 */
export class ServerTransport implements AdbTransport {
  private readonly client: AdbServerClient;

  constructor(
    server: AdbServerAddress,
    private readonly serial: string,
    connectTimeoutMs: number,
    private readonly connectTo?: string,
  ) {
    this.client = new AdbServerClient(server, connectTimeoutMs);
  }

  shell(command: string, signal: AbortSignal): Promise<ShellResult> {
    return this.withDevice(signal, () => this.client.shell(this.serial, command, signal));
  }

  exec(command: string, signal: AbortSignal): Promise<Buffer> {
    return this.withDevice(signal, () => this.client.exec(this.serial, command, signal));
  }

  execLines(command: string, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string> {
    return this.client.execLines(this.serial, command, signal, maxLineBytes);
  }

  execWithInput(command: string, input: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
    return this.withDevice(signal, () => this.client.execWithInput(this.serial, command, input(), signal));
  }

  push(remotePath: string, mode: number, data: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
    return this.withDevice(signal, () => this.client.push(this.serial, remotePath, mode, data(), signal));
  }

  async close(): Promise<void> {
    /* nothing held: each call's connection closes with the call */
  }

  /** Runs `call`; a TCP phone the server has forgotten (or never knew) is connected once, then the call runs again. */
  private async withDevice<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!this.connectTo || !unknownDevice(error)) throw error;
      await this.connectThroughServer(signal);
      return call();
    }
  }

  /** `host:connect:HOST:PORT`, then wait until the server reports the phone as `device` (it answered CNXN). */
  private async connectThroughServer(signal: AbortSignal): Promise<void> {
    const answer = await this.client.hostQuery(`host:connect:${this.connectTo}`, signal);
    if (!/connected to/.test(answer)) throw new AdbServerFailure('host:connect', `device '${this.serial}' not found (${answer})`);
    for (;;) {
      const state = await this.client.hostQuery(`host-serial:${this.serial}:get-state`, signal).catch((error: unknown) => {
        if (error instanceof AdbServerFailure) return error.message;
        throw error;
      });
      if (state.trim() === 'device') return;
      if (/unauthori[sz]ed/.test(state)) throw new AdbServerFailure('get-state', state);
      await sleep(POLL_MS, signal);
    }
  }
}

import { DirectClient, type DirectClientOptions } from '../adb-wire/direct-client';
import type { ShellResult } from '../shell-protocol';
import type { AdbTransport } from './adb-transport';

/** A phone's adbd over TCP, spoken to directly (no adb server): one shared connection, a stream per call. */
export class DirectTransport implements AdbTransport {
  readonly client: DirectClient;

  constructor(options: DirectClientOptions) {
    this.client = new DirectClient(options);
  }

  shell(command: string, signal: AbortSignal): Promise<ShellResult> {
    return this.client.shell(command, signal);
  }

  exec(command: string, signal: AbortSignal): Promise<Buffer> {
    return this.client.exec(command, signal);
  }

  execLines(command: string, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string> {
    return this.client.execLines(command, signal, maxLineBytes);
  }

  execWithInput(command: string, input: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
    return this.client.execWithInput(command, input(), signal);
  }

  push(remotePath: string, mode: number, data: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
    return this.client.push(remotePath, mode, data(), signal);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

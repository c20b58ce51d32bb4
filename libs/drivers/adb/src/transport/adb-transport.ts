import type { ShellResult } from '../shell-protocol';

/**
 * How the driver reaches a phone's command services, whichever way it is connected: through an adb server
 * (`server-transport.ts`) or straight to the phone's adbd over TCP (`direct-transport.ts`). The commands of the
 * driver know only this.
 */
export interface AdbTransport {
  /** `shell,v2,raw:` — stdout, stderr and the exit code. The signal ends the command on the phone. */
  shell(command: string, signal: AbortSignal): Promise<ShellResult>;
  /** `exec:` — raw bytes (a PNG from `screencap -p`). */
  exec(command: string, signal: AbortSignal): Promise<Buffer>;
  /**
   * `exec:` read line by line as the output arrives (`logcat`), each line cut at `maxLineBytes`; the signal, or the
   * reader stopping, ends the command on the phone.
   */
  execLines(command: string, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string>;
  /**
   * `exec:` with bytes on the command's stdin (`cmd package install -S SIZE` reads the APK there), written with
   * backpressure, then the reply until the phone closes. `input` makes the bytes afresh if the call is retried.
   */
  execWithInput(command: string, input: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer>;
  /** `sync:` SEND — bytes to a file on the phone, its folder created as the phone's push does; a refusal fails with the phone's reason. */
  push(remotePath: string, mode: number, data: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void>;
  /** Releases what the transport holds (a direct connection); a server transport holds nothing. */
  close(): Promise<void>;
}

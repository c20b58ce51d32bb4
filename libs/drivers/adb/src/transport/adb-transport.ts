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
  /** Releases what the transport holds (a direct connection); a server transport holds nothing. */
  close(): Promise<void>;
}

import type { DeviceFiles } from '../adbd/device-backend';
import type { AndroidPhone } from '../android-phone';

/** What one command of a command line gets: the phone, its files, its stdin and where its output goes. */
export interface CommandIO {
  readonly phone: AndroidPhone;
  readonly files: DeviceFiles;
  /** The previous command's stdout in a pipe (empty otherwise). */
  readonly stdin: Buffer;
  /** The client's stdin, streamed (`exec:cmd package install -S N` sends the APK here): the first command's only. */
  readonly input?: AsyncIterable<Uint8Array>;
  out(data: string | Uint8Array): void;
  err(data: string | Uint8Array): void;
  /** Aborted when the client goes away: long commands (logcat, sleep) stop then. */
  readonly signal: AbortSignal;
}

/** Runs with `argv` (argv[0] is the command name) and resolves to the exit status. */
export type Command = (argv: string[], io: CommandIO) => number | Promise<number>;

/** Parses an integer argument as Android's tools do; NaN when it is not one. */
export function intArg(s: string | undefined): number {
  return s !== undefined && /^-?\d+$/.test(s) ? Number(s) : NaN;
}

/** A coordinate argument: `input` accepts floats. */
export function floatArg(s: string | undefined): number {
  return s !== undefined && /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : NaN;
}

/** A short, stable hexadecimal id for a name (window and activity record hashes in dumps). */
export function stableHash(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(7, '0').slice(0, 7);
}

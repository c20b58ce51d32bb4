/**
 * What the virtual adbd asks of the phone behind it. The adbd (the ADB wire protocol: CNXN/OPEN/WRTE/…,
 * `shell:`, `shell,v2,…:`, `exec:`, `sync:`, `tcp:`) knows nothing of screens or apps; the Android phone knows
 * nothing of the wire. This file is the whole contract between them.
 */

/** Who the device says it is in its CNXN banner (`device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`). */
export interface AdbIdentity {
  product: string;
  model: string;
  device: string;
}

/** One command run by a `shell:`/`shell,v2,…:`/`exec:` stream. */
export interface ShellSession {
  /** The command line after the service prefix; empty for an interactive shell. */
  readonly command: string;
  /** `exec:` and `shell,v2,raw:` give raw bytes; `shell:`/`pty` streams would go through a terminal. */
  readonly pty: boolean;
  /** Bytes for the client's stdout. */
  write(stdout: Uint8Array | string): void;
  /** Bytes for the client's stderr (merged into stdout where the service has one stream). */
  writeError(stderr: Uint8Array | string): void;
  /** What the client sends on stdin; ends when it closes stdin (or the stream). */
  readonly stdin: AsyncIterable<Uint8Array>;
  /** Aborted when the client closes the stream or disconnects: a long command (logcat) must stop then. */
  readonly signal: AbortSignal;
}

/** Runs one command and resolves to its exit code (127 for an unknown command, as `/system/bin/sh` does). */
export type ShellHandler = (session: ShellSession) => Promise<number>;

/** A file or directory as `sync:` STAT/LIST report it. `mode` holds the type bits (0o100000 file, 0o040000 dir). */
export interface FileEntry {
  name: string;
  mode: number;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
}

/** The device's files as `sync:` (push, pull, stat, list) and shell commands see them. Paths are absolute. */
export interface DeviceFiles {
  stat(path: string): FileEntry | undefined;
  /** The entries of a directory, or undefined when `path` is not one. */
  list(path: string): FileEntry[] | undefined;
  /** The bytes of a file, or undefined when `path` is not a readable file. */
  read(path: string): Uint8Array | undefined;
  /** Creates or replaces a file; throws an Error whose message is what `adb push` should print on failure. */
  write(path: string, data: Uint8Array, mode: number, mtime: number): void;
  /** Removes a file or an empty directory (`rm`); false when there is nothing (or a non-empty directory) there. */
  remove?(path: string): boolean;
}

/** The phone behind the adbd. */
export interface AdbDeviceBackend {
  readonly identity: AdbIdentity;
  readonly shell: ShellHandler;
  readonly files: DeviceFiles;
  /** Opens a connection to a TCP port "on the device" (`tcp:PORT`, used by `adb forward`); undefined = refused. */
  connectTcp?(port: number): Promise<import('node:net').Socket | undefined>;
}

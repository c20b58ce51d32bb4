import type { SourceMemo } from '@apex/ios-source';
import { DeviceCommandFailure, type Where } from './errors';
import type { ShellResult } from './shell-protocol';
import { commandLine } from './shell-words';
import type { AdbTransport } from './transport/adb-transport';

/** What every command of the driver works with: one device, reached through one transport. */
export interface AdbContext {
  readonly deviceId: string;
  readonly transport: AdbTransport;
  readonly where: Where;
  /** The last screen dump and its tree. */
  readonly sources: SourceMemo;
  /** Pixels per dp (density / 160), remembered from the last display read: density does not change with rotation. */
  scale?: number;
}

/** Runs a command line (already quoted) through the shell protocol. */
export function shellLine(ctx: AdbContext, line: string, signal: AbortSignal): Promise<ShellResult> {
  return ctx.transport.shell(line, signal);
}

/** Runs one program with its arguments (each quoted for the shell). */
export function shell(ctx: AdbContext, argv: readonly string[], signal: AbortSignal): Promise<ShellResult> {
  return shellLine(ctx, commandLine(argv), signal);
}

/** Stdout of a command that must succeed (exit 0); a failure carries its output for the caller to read. */
export async function shellText(ctx: AdbContext, argv: readonly string[], signal: AbortSignal): Promise<string> {
  return okText(await shell(ctx, argv, signal));
}

export function okText(result: ShellResult): string {
  const stdout = result.stdout.toString('utf8');
  if (result.exitCode !== 0) throw new DeviceCommandFailure(result.exitCode, `${stdout}${result.stderr.toString('utf8')}`);
  return stdout;
}

/** Raw bytes of a command (`exec:`), e.g. a PNG from `screencap -p`. */
export function execBytes(ctx: AdbContext, argv: readonly string[], signal: AbortSignal): Promise<Buffer> {
  return ctx.transport.exec(commandLine(argv), signal);
}

/** `exec:` with a stream on the command's stdin (made afresh if the call is retried after a reconnect). */
export function execWithInput(ctx: AdbContext, argv: readonly string[], input: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
  return ctx.transport.execWithInput(commandLine(argv), input, signal);
}

/** Pushes bytes to a file on the device (`sync:` SEND), creating its folder as the device's push does. */
export function pushFile(ctx: AdbContext, remotePath: string, mode: number, data: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
  return ctx.transport.push(remotePath, mode, data, signal);
}

/**
 * Runs several commands in one shell (one round trip), each with its own output and status: `CMD 2>&1; echo
 * MARK$?` per command, split again here.
 */
export async function shellEach(ctx: AdbContext, argvs: ReadonlyArray<readonly string[]>, signal: AbortSignal): Promise<Array<{ status: number; output: string }>> {
  const mark = '::apex-status::';
  const line = argvs.map((argv) => `${commandLine(argv)} 2>&1; echo ${mark}$?`).join('; ');
  const text = (await shellLine(ctx, line, signal)).stdout.toString('utf8');
  const results: Array<{ status: number; output: string }> = [];
  const pattern = new RegExp(`${mark}(\\d+)\\n?`, 'g');
  let from = 0;
  for (const m of text.matchAll(pattern)) {
    results.push({ status: Number(m[1]), output: text.slice(from, m.index) });
    from = (m.index ?? 0) + m[0].length;
  }
  if (results.length !== argvs.length) throw new DeviceCommandFailure(1, text);
  return results;
}

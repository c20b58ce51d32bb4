import { DeviceCommandFailure, type Where } from './errors';
import type { ShellResult } from './shell-protocol';
import { commandLine } from './shell-words';
import type { AdbTransport } from './transport/adb-transport';

/** What every command of the driver works with: one device, reached through one transport. */
export interface AdbContext {
  readonly deviceId: string;
  readonly transport: AdbTransport;
  readonly where: Where;
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

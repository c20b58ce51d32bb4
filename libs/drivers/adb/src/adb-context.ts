import { AdbServerClient, AdbServerFailure, type ShellResult } from './adb-server/adb-server-client';
import { AdbTransportError } from './adb-server/socket-reader';
import { DeviceCommandFailure, type Where } from './errors';
import { commandLine } from './shell-words';

/** What every command of the driver works with: one device behind one adb server. */
export interface AdbContext {
  readonly deviceId: string;
  /** The device's serial in the server (`emulator-5554`, `HOST:PORT` for a TCP device). */
  readonly serial: string;
  readonly client: AdbServerClient;
  readonly where: Where;
  /** For a device reached over TCP: the `HOST:PORT` the server is asked to connect to when it does not know it. */
  readonly connectTo?: string;
  /** Pixels per dp (density / 160), remembered from the last display read: density does not change with rotation. */
  scale?: number;
}

const POLL_MS = 100;

function unknownDevice(error: unknown): boolean {
  return error instanceof AdbServerFailure && /not found|no devices|no emulators/i.test(error.message);
}

/** Waits, or rejects as an aborted call when the signal ends the wait. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AdbTransportError('aborted', 'the call was cancelled'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A TCP device the server does not know yet: `host:connect:HOST:PORT` (the server opens the transport and
 * keeps it), then wait until the server reports it as `device` (it answers CNXN) or the signal ends the wait.
 */
async function connectThroughServer(ctx: AdbContext, signal: AbortSignal): Promise<void> {
  const answer = await ctx.client.hostQuery(`host:connect:${ctx.connectTo}`, signal);
  if (!/connected to/.test(answer)) throw new AdbServerFailure('host:connect', `device '${ctx.serial}' not found (${answer})`);
  for (;;) {
    const state = await ctx.client.hostQuery(`host-serial:${ctx.serial}:get-state`, signal).catch((error: unknown) => {
      if (error instanceof AdbServerFailure) return error.message;
      throw error;
    });
    if (state.trim() === 'device') return;
    if (/unauthori[sz]ed/.test(state)) throw new AdbServerFailure('get-state', state);
    await sleep(POLL_MS, signal);
  }
}

/** Runs `call`; a TCP device the server has forgotten (or never knew) is connected once, then the call runs again. */
async function withDevice<T>(ctx: AdbContext, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!ctx.connectTo || !unknownDevice(error)) throw error;
    await connectThroughServer(ctx, signal);
    return call();
  }
}

/** Runs a command line (already quoted) through the shell protocol. */
export function shellLine(ctx: AdbContext, line: string, signal: AbortSignal): Promise<ShellResult> {
  return withDevice(ctx, signal, () => ctx.client.shell(ctx.serial, line, signal));
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
  return withDevice(ctx, signal, () => ctx.client.exec(ctx.serial, commandLine(argv), signal));
}

/** `exec:` with a stream on the command's stdin (made afresh if the call is retried after a reconnect). */
export function execWithInput(ctx: AdbContext, argv: readonly string[], input: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<Buffer> {
  return withDevice(ctx, signal, () => ctx.client.execWithInput(ctx.serial, commandLine(argv), input(), signal));
}

/** Pushes bytes to a file on the device (`sync:` SEND), creating its folder as the device's push does. */
export function pushFile(ctx: AdbContext, remotePath: string, mode: number, data: () => AsyncIterable<Uint8Array>, signal: AbortSignal): Promise<void> {
  return withDevice(ctx, signal, () => ctx.client.push(ctx.serial, remotePath, mode, data(), signal));
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

import type { CrashReport, CrashSummary, LogEntry, LogQuery } from '@apex/port';
import { okText, shell, type AdbContext } from '../adb-context';
import { filterspecFor, parseCrashBlocks, parseThreadtime, ProcessNames, toLogEntry, type LogcatLine } from '../parse/logcat';
import { commandLine } from '../shell-words';

/*
 * The device log and crash reports through `logcat`, run with `exec:` and read line by line as it arrives:
 * `-d` (dump what the buffers hold, then end), `-v threadtime -v year -v UTC` (a whole, zone-free time),
 * `-T SECONDS.mmm` (from an instant), a `*:P` filterspec for a minimum level; crashes from the crash buffer
 * (`-b crash`). The hub's time limit aborts the read (the stream closes, logcat ends on the device).
 */

/** Bytes of one line kept (a longer one is cut): what a runaway line can cost. */
const MAX_LINE_BYTES = 16 * 1024;
const TIME_FORMAT = ['-v', 'threadtime', '-v', 'year', '-v', 'UTC'];

function epochArg(ms: number): string {
  return `${Math.floor(ms / 1000)}.${String(Math.floor(ms % 1000)).padStart(3, '0')}`;
}

async function* logcatLines(ctx: AdbContext, args: readonly string[], signal: AbortSignal): AsyncGenerator<LogcatLine> {
  const now = Date.now();
  for await (const text of ctx.transport.execLines(commandLine(['logcat', '-d', ...TIME_FORMAT, ...args]), signal, MAX_LINE_BYTES)) {
    const line = parseThreadtime(text, now);
    if (line) yield line;
  }
}

export async function* logs(ctx: AdbContext, query: LogQuery, signal: AbortSignal): AsyncGenerator<LogEntry> {
  // `ps` first names the processes (and connects a TCP device the server had forgotten).
  const names = new ProcessNames();
  names.addPs(okText(await shell(ctx, ['ps', '-A'], signal)));
  const args: string[] = [];
  if (query.sinceMs !== undefined) args.push('-T', epochArg(Math.max(0, query.sinceMs)));
  if (query.minLevel !== undefined) args.push(filterspecFor(query.minLevel));
  // A FATAL EXCEPTION line waits for the next one, which names its process (`Process: PKG, PID: N`).
  let held: LogcatLine | undefined;
  for await (const line of logcatLines(ctx, args, signal)) {
    names.learn(line);
    if (held) yield toLogEntry(held, names);
    held = undefined;
    if (line.tag === 'AndroidRuntime' && line.message.startsWith('FATAL EXCEPTION')) held = line;
    else yield toLogEntry(line, names);
  }
  if (held) yield toLogEntry(held, names);
}

async function crashes(ctx: AdbContext, signal: AbortSignal): Promise<CrashReport[]> {
  // The crash buffer is small (logd keeps 64 KB–1 MB of it): its lines are held for the parse.
  const lines: LogcatLine[] = [];
  // A first shell call connects a TCP device the server had forgotten.
  await shell(ctx, ['true'], signal);
  for await (const line of logcatLines(ctx, ['-b', 'crash'], signal)) if (lines.length < 20_000) lines.push(line);
  return parseCrashBlocks(lines);
}

export async function crashReports(ctx: AdbContext, query: { app?: string; sinceMs?: number }, signal: AbortSignal): Promise<CrashSummary[]> {
  return (await crashes(ctx, signal))
    .filter((c) => (query.app === undefined || c.app === query.app) && (query.sinceMs === undefined || c.time >= query.sinceMs))
    .map(({ id, app, time, exception }) => ({ id, app, time, exception }));
}

export async function crashReport(ctx: AdbContext, id: string, signal: AbortSignal): Promise<CrashReport | undefined> {
  return (await crashes(ctx, signal)).find((c) => c.id === id);
}

import { LOG_PRIORITIES, Logcat, type LogBuffer, type LogEntry } from '../../system/logcat';
import type { Command, CommandIO } from '../command';

/*
 * `logcat` as Android 14's prints it (system/logging/logcat/logcat.cpp): `-d` dump and exit, `-c` clear,
 * `-t N|TIME` the last lines and exit, `-T N|TIME` from there (then follow), `-v threadtime|year|UTC`,
 * `-b main|system|crash|default|all` (repeated or comma-separated), `--pid=N`, filterspecs `TAG:P` (`*:E`).
 * TIME is `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or `SECONDS.mmm` since the epoch; the phone's clock is UTC.
 */

const FOLLOW_POLL_MS = 100;

interface LogcatArgs {
  dump: boolean;
  clear: boolean;
  year: boolean;
  buffers: LogBuffer[];
  /** The last N lines. */
  tail?: number;
  /** Lines at or after this instant. */
  since?: number;
  pid?: number;
  /** Tag → lowest priority shown; `*` for every other tag. */
  filters: Map<string, number>;
}

class UsageError extends Error {}

/** `SECONDS.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or `MM-DD hh:mm:ss.mmm` (this year) → ms since the epoch. */
function parseTime(text: string, now: number): number | undefined {
  const epoch = /^(\d+)\.(\d{1,9})$/.exec(text);
  if (epoch) return Number(epoch[1]) * 1000 + Math.floor(Number(`0.${epoch[2]}`) * 1000);
  const stamp = /^(?:(\d{4})-)?(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(text);
  if (!stamp) return undefined;
  const [, y, mo, d, h, mi, s, frac] = stamp;
  const year = y !== undefined ? Number(y) : new Date(now).getUTCFullYear();
  return Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
}

function bufferNames(value: string): LogBuffer[] {
  const out: LogBuffer[] = [];
  for (const name of value.split(',')) {
    if (name === 'main' || name === 'system') out.push('main');
    else if (name === 'crash') out.push('crash');
    else if (name === 'default' || name === 'all') out.push('main', 'crash');
    else if (name === 'events' || name === 'radio' || name === 'kernel' || name === 'stats' || name === 'security') continue;
    else throw new UsageError(`unknown buffer '${name}'`);
  }
  return out;
}

function parseArgs(args: string[], now: number): LogcatArgs {
  const parsed: LogcatArgs = { dump: false, clear: false, year: false, buffers: [], filters: new Map() };
  const value = (i: number, flag: string): string => {
    const v = args[i + 1];
    if (v === undefined) throw new UsageError(`option requires an argument -- '${flag}'`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-d') parsed.dump = true;
    else if (a === '-c') parsed.clear = true;
    else if (a === '-s') parsed.filters.set('*', LOG_PRIORITIES.length);
    else if (a === '-v' || a.startsWith('-v')) {
      const format = a === '-v' ? value(i++, 'v') : a.slice(2);
      for (const f of format.split(',')) {
        if (f === 'year') parsed.year = true;
        else if (!['threadtime', 'UTC', 'utc', 'color', 'printable'].includes(f)) throw new UsageError(`unknown output format '${f}'`);
      }
    } else if (a === '-b' || (a.startsWith('-b') && a.length > 2)) parsed.buffers.push(...bufferNames(a === '-b' ? value(i++, 'b') : a.slice(2)));
    else if (a === '-t' || a === '-T') {
      const v = value(i++, a.slice(1));
      if (a === '-t') parsed.dump = true;
      if (/^\d+$/.test(v)) parsed.tail = Number(v);
      else {
        const since = parseTime(v, now);
        if (since === undefined) throw new UsageError(`-${a.slice(1)} '${v}' not in time format`);
        parsed.since = since;
      }
    } else if (a.startsWith('--pid=') || a === '--pid') {
      const v = a === '--pid' ? value(i++, 'pid') : a.slice(6);
      if (!/^\d+$/.test(v)) throw new UsageError(`--pid '${v}' is not a valid integer`);
      parsed.pid = Number(v);
    } else if (/^[^-][^:]*:[VDIWEFS*]$/.test(a)) {
      const [tag, p] = [a.slice(0, -2), a.slice(-1)];
      parsed.filters.set(tag, p === 'S' ? LOG_PRIORITIES.length : p === '*' ? 0 : LOG_PRIORITIES.indexOf(p as LogEntry['level']));
    } else throw new UsageError(`invalid option -- '${a.replace(/^-+/, '')}'`);
  }
  if (parsed.buffers.length === 0) parsed.buffers = ['main', 'crash'];
  return parsed;
}

function shown(args: LogcatArgs): (e: LogEntry) => boolean {
  const fallback = args.filters.get('*') ?? 0;
  return (e) => {
    if (args.pid !== undefined && e.pid !== args.pid) return false;
    if (args.since !== undefined && e.time < args.since) return false;
    return LOG_PRIORITIES.indexOf(e.level) >= (args.filters.get(e.tag) ?? fallback);
  };
}

/** Prints lines, each buffer's "beginning of" marker before its first one (main's always first, as on a phone). */
function printer(io: CommandIO, args: LogcatArgs): (lines: readonly LogEntry[]) => void {
  const begun = new Set<LogBuffer>();
  const begin = (b: LogBuffer) => {
    if (begun.has(b)) return;
    begun.add(b);
    io.out(`--------- beginning of ${b}\n`);
  };
  if (args.buffers.includes('main')) begin('main');
  return (lines) => {
    let text = '';
    for (const e of lines) {
      if (!begun.has(e.buffer)) {
        if (text) io.out(text);
        text = '';
        begin(e.buffer);
      }
      text += `${Logcat.threadtime(e, { year: args.year })}\n`;
    }
    if (text) io.out(text);
  };
}

export const logcat: Command = async (argv, io) => {
  const phone = io.phone;
  let args: LogcatArgs;
  try {
    args = parseArgs(argv.slice(1), Date.now());
  } catch (error) {
    io.err(`logcat: ${(error as Error).message}\nUsage: logcat [options] [filterspecs]\n`);
    return 1;
  }
  if (args.clear) {
    phone.logcat.clear(args.buffers);
    return 0;
  }
  const keep = shown(args);
  const lines = phone.logcat.read(args.buffers);
  const selected = lines.filter(keep);
  const print = printer(io, args);
  print(args.tail !== undefined ? selected.slice(-args.tail) : selected);
  if (args.dump) return 0;
  // Follow: print new lines until the client closes the stream.
  let last = lines.length ? (lines[lines.length - 1] as LogEntry).seq : 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const fresh = phone.logcat.read(args.buffers, last);
      if (fresh.length) last = (fresh[fresh.length - 1] as LogEntry).seq;
      print(fresh.filter(keep));
    }, FOLLOW_POLL_MS);
    const stop = () => {
      clearInterval(timer);
      resolve();
    };
    if (io.signal.aborted) stop();
    else io.signal.addEventListener('abort', stop, { once: true });
  });
  return 0;
};

import type { CrashReport, LogEntry, LogLevel } from '@apex/port';

/*
 * `logcat -v threadtime -v year -v UTC` lines (AOSP liblog logprint.cpp, FORMAT_THREADTIME):
 * `2026-12-06 16:24:01.123  4211  4211 E AndroidRuntime: FATAL EXCEPTION: main`. Without `year` the date is
 * `MM-DD` (this year is assumed). Buffer markers (`--------- beginning of main`) are not lines of the log.
 */

const THREADTIME = /^(?:(\d{4})-)?(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})\s+(\d+)\s+(\d+)\s+([VDIWEFA])\s+(.*?)\s*: (.*)$/;

export interface LogcatLine {
  time: number;
  pid: number;
  tid: number;
  priority: string;
  tag: string;
  message: string;
}

export function parseThreadtime(line: string, now: number = Date.now()): LogcatLine | undefined {
  const m = THREADTIME.exec(line);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms, pid, tid, priority, tag, message] = m as unknown as string[];
  const year = y !== undefined ? Number(y) : new Date(now).getUTCFullYear();
  return {
    time: Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms)),
    pid: Number(pid),
    tid: Number(tid),
    priority: priority as string,
    tag: tag as string,
    message: message as string,
  };
}

/** logcat's priorities onto Apex's levels: verbose and debug are debug, warnings count as info, assert as fault. */
export function levelOf(priority: string): LogLevel {
  switch (priority) {
    case 'V':
    case 'D':
      return 'debug';
    case 'E':
      return 'error';
    case 'F':
    case 'A':
      return 'fault';
    default:
      return 'info';
  }
}

/** The filterspec that keeps `level` and more severe lines. */
export function filterspecFor(level: LogLevel): string {
  return { debug: '*:V', info: '*:I', error: '*:E', fault: '*:F' }[level];
}

/**
 * Which process a pid is, learned as the log goes: `ps` before the read, then ActivityManager's
 * `Start proc 4211:com.example/u0a100 …` and AndroidRuntime's `Process: com.example, PID: 4211` (a process that
 * died since still gets its name).
 */
export class ProcessNames {
  private readonly names = new Map<number, string>();

  /** `ps -A` output: USER PID PPID … NAME. */
  addPs(text: string): void {
    for (const row of text.split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      const pid = Number(cols[1]);
      const name = cols[cols.length - 1];
      if (Number.isInteger(pid) && name) this.names.set(pid, name);
    }
  }

  learn(line: LogcatLine): void {
    const start = /^Start proc (\d+):([^/\s]+)\//.exec(line.message);
    if (start) this.names.set(Number(start[1]), start[2] as string);
    const crash = line.tag === 'AndroidRuntime' ? /^Process: ([^,\s]+), PID: (\d+)/.exec(line.message) : null;
    if (crash) this.names.set(Number(crash[2]), crash[1] as string);
  }

  nameOf(pid: number): string | undefined {
    return this.names.get(pid);
  }
}

/** A process name that is an app's: a package name (`com.example.app`, or `com.example.app:remote`). */
export function appOfProcess(name: string | undefined): string | undefined {
  if (!name || !/^[A-Za-z][\w]*(\.[\w]+)+(:[\w.]+)?$/.test(name)) return undefined;
  return name.split(':')[0];
}

export function toLogEntry(line: LogcatLine, names: ProcessNames): LogEntry {
  const process = names.nameOf(line.pid) ?? line.tag;
  const app = appOfProcess(names.nameOf(line.pid));
  return { time: line.time, level: levelOf(line.priority), process, pid: line.pid, ...(app ? { app } : {}), message: `${line.tag}: ${line.message}` };
}

/**
 * The FATAL EXCEPTION blocks of AndroidRuntime in the crash buffer (RuntimeInit's uncaught-exception handler):
 * `FATAL EXCEPTION: <thread>`, `Process: <pkg>, PID: <pid>`, `<class>: <message>`, then `\tat <frame>` lines
 * and `Caused by:` chains — all from one pid, tag AndroidRuntime.
 */
export function parseCrashBlocks(lines: readonly LogcatLine[]): CrashReport[] {
  const reports: CrashReport[] = [];
  let current: { head: LogcatLine; text: string[]; app?: string; exception?: string; reason?: string; frames: string[] } | undefined;
  const finish = () => {
    if (current?.app && current.exception) {
      const { head } = current;
      reports.push({
        id: `${head.time}-${head.pid}`,
        app: current.app,
        time: head.time,
        exception: current.exception,
        ...(current.reason ? { reason: current.reason } : {}),
        frames: current.frames,
        text: current.text.join('\n'),
      });
    }
    current = undefined;
  };
  for (const line of lines) {
    if (line.tag !== 'AndroidRuntime') continue;
    if (/^FATAL EXCEPTION: /.test(line.message)) {
      finish();
      current = { head: line, text: [line.message], frames: [] };
      continue;
    }
    if (!current || line.pid !== current.head.pid) continue;
    current.text.push(line.message);
    const process = /^Process: ([^,\s]+), PID: \d+/.exec(line.message);
    if (process) current.app = process[1];
    else if (/^\s+at /.test(line.message)) {
      if (current.frames.length < 256) current.frames.push(line.message.trim().replace(/^at /, ''));
    } else if (current.exception === undefined && current.app !== undefined) {
      const colon = line.message.indexOf(': ');
      current.exception = colon > 0 ? line.message.slice(0, colon) : line.message.trim();
      if (colon > 0) current.reason = line.message.slice(colon + 2);
    }
  }
  finish();
  return reports;
}

/** The log buffers the phone keeps (logd's main and crash; `system` lines go to main here). */
export type LogBuffer = 'main' | 'crash';

/** One line of a log buffer. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  pid: number;
  tid: number;
  level: 'V' | 'D' | 'I' | 'W' | 'E' | 'F';
  tag: string;
  message: string;
  buffer: LogBuffer;
  /** Order of arrival over all buffers (a follower prints what came after the last one it printed). */
  seq: number;
}

/** Lines kept per buffer (logd keeps 256 KB of main by default: about this many short lines). */
export const LOGCAT_CAPACITY = 2000;
const CRASH_CAPACITY = 500;

/** Severity order of logcat's priorities (filterspecs `*:W` keep W and above). */
export const LOG_PRIORITIES = ['V', 'D', 'I', 'W', 'E', 'F'] as const;

/** How `logcat -v` prints a line: threadtime with the `year` and `UTC` modifiers when asked. */
export interface LogFormat {
  year: boolean;
}

/** The phone's log: ring buffers of what it did, printed as `logcat -v threadtime` prints them. */
export class Logcat {
  private readonly buffers: Record<LogBuffer, LogEntry[]> = { main: [], crash: [] };
  private nextSeq = 1;

  constructor(private readonly now: () => number) {}

  add(pid: number, level: LogEntry['level'], tag: string, message: string, buffer: LogBuffer = 'main', tid: number = pid): void {
    const ring = this.buffers[buffer];
    ring.push({ time: this.now(), pid, tid, level, tag, message, buffer, seq: this.nextSeq++ });
    // Trim in steps, so a flood costs amortized O(1) per line.
    const capacity = buffer === 'main' ? LOGCAT_CAPACITY : CRASH_CAPACITY;
    if (ring.length > capacity + capacity / 4) ring.splice(0, ring.length - capacity);
  }

  clear(buffers: readonly LogBuffer[] = ['main', 'crash']): void {
    for (const b of buffers) this.buffers[b].length = 0;
  }

  /** The lines of these buffers, oldest first (each buffer's last LOGCAT_CAPACITY lines at most). */
  read(buffers: readonly LogBuffer[] = ['main', 'crash'], afterSeq = 0): LogEntry[] {
    const lines: LogEntry[] = [];
    for (const b of buffers) {
      const ring = this.buffers[b];
      const capacity = b === 'main' ? LOGCAT_CAPACITY : CRASH_CAPACITY;
      for (const e of ring.slice(-capacity)) if (e.seq > afterSeq) lines.push(e);
    }
    return lines.sort((a, b) => a.seq - b.seq);
  }

  /** The main buffer, oldest first. */
  all(): readonly LogEntry[] {
    return this.read(['main']);
  }

  /** `[YYYY-]MM-DD HH:MM:SS.mmm  PID  TID L TAG     : message` (logcat's threadtime format; the phone's zone is UTC). */
  static threadtime(e: LogEntry, format: LogFormat = { year: false }): string {
    const d = new Date(e.time);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const date = `${format.year ? `${d.getUTCFullYear()}-` : ''}${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
    const stamp = `${date} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
    return `${stamp} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag.padEnd(8)}: ${e.message}`;
  }
}

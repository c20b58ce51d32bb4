/** One line of the main log buffer. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  pid: number;
  tid: number;
  level: 'V' | 'D' | 'I' | 'W' | 'E';
  tag: string;
  message: string;
}

const CAPACITY = 2000;

/** The phone's log: a ring buffer of what it did, printed as `logcat -v threadtime` prints it. */
export class Logcat {
  private readonly entries: LogEntry[] = [];

  constructor(private readonly now: () => number) {}

  add(pid: number, level: LogEntry['level'], tag: string, message: string): void {
    this.entries.push({ time: this.now(), pid, tid: pid, level, tag, message });
    if (this.entries.length > CAPACITY) this.entries.splice(0, this.entries.length - CAPACITY);
  }

  clear(): void {
    this.entries.length = 0;
  }

  all(): readonly LogEntry[] {
    return this.entries;
  }

  /** `MM-DD HH:MM:SS.mmm  PID  TID L TAG     : message`, one line per entry (logcat's threadtime format, UTC). */
  static threadtime(e: LogEntry): string {
    const d = new Date(e.time);
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    const stamp = `${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
    return `${stamp} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag.padEnd(8)}: ${e.message}`;
  }
}

import type { LogLevel } from '@apex/port';
import { REDACTED } from '../secrets';

/** One log line as an answer shows it. */
export interface ShownLogEntry {
  time: string;
  level: LogLevel;
  process: string;
  pid?: number;
  app?: string;
  message: string;
}

/**
 * The newest lines that fit: at most `maxEntries` lines and `maxBytes` bytes of JSON. Lines arrive oldest
 * first; when one more does not fit, the oldest kept ones leave and are counted in `omitted`. Memory stays
 * bounded by the limits whatever the number of lines offered.
 */
export class LogWindow {
  private readonly kept: { entry: ShownLogEntry; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;
  omitted = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  add(entry: ShownLogEntry): void {
    const bytes = Buffer.byteLength(JSON.stringify(entry)) + 1;
    this.kept.push({ entry, bytes });
    this.bytes += bytes;
    while (this.kept.length - this.head > this.maxEntries || (this.bytes > this.maxBytes && this.kept.length - this.head > 0)) {
      this.bytes -= (this.kept[this.head] as { bytes: number }).bytes;
      this.head += 1;
      this.omitted += 1;
    }
    // Drop the consumed head now and then, so the array never holds more than twice the window.
    if (this.head > this.maxEntries) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  /** How many lines the window holds now. */
  get size(): number {
    return this.kept.length - this.head;
  }

  entries(): ShownLogEntry[] {
    return this.kept.slice(this.head).map((k) => k.entry);
  }
}

/** `text` with every typed secret replaced by `[redacted]` (secrets longest first). */
export function redactTexts(text: string, secrets: readonly string[]): string {
  let shown = text;
  for (const secret of secrets) if (shown.includes(secret)) shown = shown.split(secret).join(REDACTED);
  return shown;
}

/** At most `max` characters, marked with … when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

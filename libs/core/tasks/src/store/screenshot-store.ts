import { readdirSync, rmSync, statSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureApexDir, makeFilePrivate, writePrivateFile } from './private-files';

export interface ScreenshotRetention {
  /** Screenshots kept per task: the newest ones (default 20). */
  perTask?: number;
  /** Bytes kept over all tasks: the oldest files go first (default 200 MB). */
  maxTotalBytes?: number;
}

export interface StoredScreenshot {
  taskId: string;
  ref: string;
}

interface Entry extends StoredScreenshot {
  bytes: number;
  /** Write order, for "oldest first" across tasks (survives restarts through the file times). */
  order: number;
}

/**
 * Step screenshots as files, `<dir>/<taskId>/<ref>`, under a retention limit, owner-only (folders 0700, files
 * 0600). Each save returns the files it evicted so the task store can drop their references.
 */
export class ScreenshotStore {
  private readonly perTask: number;
  private readonly maxTotalBytes: number;
  private readonly entries: Entry[] = [];
  private totalBytes = 0;
  private counter = 0;

  constructor(
    readonly dir: string,
    retention: ScreenshotRetention = {},
  ) {
    this.perTask = retention.perTask ?? 20;
    this.maxTotalBytes = retention.maxTotalBytes ?? 200 * 1024 * 1024;
    ensureApexDir(dir);
    this.loadExisting();
  }

  pathOf(taskId: string, ref: string): string {
    return join(this.dir, taskId, ref);
  }

  save(taskId: string, ref: string, bytes: Buffer): StoredScreenshot[] {
    ensureApexDir(join(this.dir, taskId));
    writePrivateFile(this.pathOf(taskId, ref), bytes);
    this.entries.push({ taskId, ref, bytes: bytes.length, order: this.counter++ });
    this.totalBytes += bytes.length;
    return this.enforce(taskId);
  }

  /** Removes every screenshot of a task (its retention ended). */
  removeTask(taskId: string): void {
    for (const entry of this.entries.filter((e) => e.taskId === taskId)) this.remove(entry);
    rmSync(join(this.dir, taskId), { recursive: true, force: true });
  }

  get usedBytes(): number {
    return this.totalBytes;
  }

  private enforce(taskId: string): StoredScreenshot[] {
    const evicted: StoredScreenshot[] = [];
    const ofTask = this.entries.filter((entry) => entry.taskId === taskId);
    for (const entry of ofTask.slice(0, Math.max(0, ofTask.length - this.perTask))) evicted.push(this.remove(entry));
    while (this.totalBytes > this.maxTotalBytes && this.entries.length > 1) evicted.push(this.remove(this.entries[0]));
    return evicted;
  }

  private remove(entry: Entry): StoredScreenshot {
    this.entries.splice(this.entries.indexOf(entry), 1);
    this.totalBytes -= entry.bytes;
    rmSync(this.pathOf(entry.taskId, entry.ref), { force: true });
    try {
      rmdirSync(join(this.dir, entry.taskId));
    } catch {
      // Not empty yet: other screenshots of the task remain.
    }
    return { taskId: entry.taskId, ref: entry.ref };
  }

  private loadExisting(): void {
    const found: Array<Omit<Entry, 'order'> & { mtimeMs: number }> = [];
    for (const taskId of readdirSync(this.dir)) {
      const taskDir = join(this.dir, taskId);
      if (!statSync(taskDir).isDirectory()) continue;
      ensureApexDir(taskDir);
      for (const ref of readdirSync(taskDir)) {
        const stat = statSync(join(taskDir, ref));
        if (!stat.isFile()) continue;
        // Kept by an older version with a wider mode.
        if ((stat.mode & 0o077) !== 0) makeFilePrivate(join(taskDir, ref));
        found.push({ taskId, ref, bytes: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs || a.ref.localeCompare(b.ref));
    for (const { taskId, ref, bytes } of found) {
      this.entries.push({ taskId, ref, bytes, order: this.counter++ });
      this.totalBytes += bytes;
    }
  }
}

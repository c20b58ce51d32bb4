import type { DeviceFiles, FileEntry } from './adbd/device-backend';

const DIR = 0o040000;
const FILE = 0o100000;

/**
 * A small in-memory file tree with the folders a phone has (`/sdcard`, `/data/local/tmp`…), for the shell's
 * files until the adbd's own `MemoryFiles` replaces it. Writes need an existing parent folder.
 */
export class MapDeviceFiles implements DeviceFiles {
  private readonly dirs = new Map<string, number>();
  private readonly files = new Map<string, { data: Uint8Array; mode: number; mtime: number }>();

  constructor(private readonly now: () => number = () => Math.floor(Date.now() / 1000)) {
    for (const d of ['/', '/sdcard', '/sdcard/Download', '/sdcard/Pictures', '/data', '/data/local', '/data/local/tmp', '/storage', '/system']) this.dirs.set(d, this.now());
  }

  stat(path: string): FileEntry | undefined {
    const p = normalize(path);
    const dir = this.dirs.get(p);
    if (dir !== undefined) return { name: p, mode: DIR | 0o771, size: 4096, mtime: dir };
    const f = this.files.get(p);
    return f ? { name: p, mode: f.mode, size: f.data.length, mtime: f.mtime } : undefined;
  }

  list(path: string): FileEntry[] | undefined {
    const p = normalize(path);
    if (!this.dirs.has(p)) return undefined;
    const prefix = p === '/' ? '/' : `${p}/`;
    const direct = (q: string) => q !== p && q.startsWith(prefix) && !q.slice(prefix.length).includes('/');
    const entries: FileEntry[] = [];
    for (const [d, mtime] of this.dirs) if (direct(d)) entries.push({ name: d.slice(prefix.length), mode: DIR | 0o771, size: 4096, mtime });
    for (const [f, v] of this.files) if (direct(f)) entries.push({ name: f.slice(prefix.length), mode: v.mode, size: v.data.length, mtime: v.mtime });
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  }

  read(path: string): Uint8Array | undefined {
    return this.files.get(normalize(path))?.data;
  }

  write(path: string, data: Uint8Array, mode: number, mtime: number): void {
    const p = normalize(path);
    const parent = p.slice(0, p.lastIndexOf('/')) || '/';
    if (!this.dirs.has(parent)) throw new Error(`${parent}: No such file or directory`);
    if (this.dirs.has(p)) throw new Error(`${p}: Is a directory`);
    this.files.set(p, { data: Uint8Array.from(data), mode: FILE | (mode & 0o7777), mtime });
  }
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.replace(/^\/storage\/emulated\/0(?=\/|$)/, '/sdcard').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

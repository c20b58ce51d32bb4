import { posix } from 'node:path';
import type { DeviceFiles, FileEntry } from './device-backend';

export const S_IFMT = 0o170000;
export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;

interface Node {
  mode: number;
  mtime: number;
  /** Files only. */
  data?: Uint8Array;
  /** Directories only. */
  children?: Map<string, Node>;
}

export interface MemoryFilesOptions {
  /** Seconds since the epoch for directories made without an explicit time (default: now). Tests pin it. */
  now?: () => number;
}

/**
 * An in-memory device filesystem for `sync:` and the phone's shell: directories and files with modes and
 * mtimes. Writing a file creates its missing parent directories (mode 0775) as adbd's push does
 * (`fixed_push_mkdir`). Paths are absolute; `.`/`..` and repeated slashes are normalised.
 */
export class MemoryFiles implements DeviceFiles {
  private readonly root: Node;
  private readonly now: () => number;

  constructor(options: MemoryFilesOptions = {}) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    this.root = { mode: S_IFDIR | 0o755, mtime: this.now(), children: new Map() };
  }

  stat(path: string): FileEntry | undefined {
    const p = normalize(path);
    const node = this.find(p);
    return node && entry(p === '/' ? '/' : posix.basename(p), node);
  }

  list(path: string): FileEntry[] | undefined {
    const node = this.find(normalize(path));
    if (!node?.children) return undefined;
    return [...node.children.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, child]) => entry(name, child));
  }

  read(path: string): Uint8Array | undefined {
    return this.find(normalize(path))?.data;
  }

  write(path: string, data: Uint8Array, mode: number, mtime: number): void {
    const p = normalize(path);
    if (p === '/') throw new Error("couldn't create file: Is a directory");
    const parent = this.mkdirs(posix.dirname(p), mtime);
    const name = posix.basename(p);
    const existing = parent.children?.get(name);
    if (existing?.children) throw new Error("couldn't create file: Is a directory");
    parent.children?.set(name, { mode: S_IFREG | (mode & 0o7777), mtime, data: Uint8Array.from(data) });
  }

  /** Creates a directory and its missing parents (`mkdir -p`); throws when a file is in the way. */
  mkdir(path: string, mode = 0o775, mtime = this.now()): void {
    const dir = this.mkdirs(normalize(path), mtime);
    dir.mode = S_IFDIR | (mode & 0o7777);
  }

  /** Removes a file or an empty directory; false when there is nothing (or a non-empty directory) there. */
  remove(path: string): boolean {
    const p = normalize(path);
    const parent = this.find(posix.dirname(p));
    const node = parent?.children?.get(posix.basename(p));
    if (!parent?.children || !node || p === '/' || (node.children && node.children.size > 0)) return false;
    return parent.children.delete(posix.basename(p));
  }

  private find(path: string): Node | undefined {
    let node: Node | undefined = this.root;
    for (const part of parts(path)) {
      node = node?.children?.get(part);
      if (!node) return undefined;
    }
    return node;
  }

  private mkdirs(path: string, mtime: number): Node {
    let node = this.root;
    for (const part of parts(path)) {
      if (!node.children) throw new Error('secure_mkdirs() failed: Not a directory');
      let next = node.children.get(part);
      if (!next) {
        next = { mode: S_IFDIR | 0o775, mtime, children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    if (!node.children) throw new Error("couldn't create file: Not a directory");
    return node;
  }
}

function normalize(path: string): string {
  return posix.resolve('/', path);
}

function parts(path: string): string[] {
  return path.split('/').filter((p) => p.length > 0);
}

function entry(name: string, node: Node): FileEntry {
  return { name, mode: node.mode, size: node.data?.length ?? (node.children ? 4096 : 0), mtime: node.mtime };
}

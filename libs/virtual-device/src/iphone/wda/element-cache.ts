/**
 * WDA's element ids and cache (WDA:Routing/FBElementUtils.m, FBElementCache.m): an uppercase UUID made of
 * 8 bytes of element id (little-endian), 4 bytes of pid (little-endian) and 4 zero bytes; an LRU of 1024.
 */

export const ELEMENT_CACHE_SIZE = 1024;

export interface CachedElement {
  /** The phone's stable element uid. */
  uid: string;
  pid: number;
}

export function formatElementId(elementNumber: number, pid: number): string {
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64LE(BigInt(elementNumber), 0);
  bytes.writeUInt32LE(pid >>> 0, 8);
  const hex = bytes.toString('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class ElementCache {
  private readonly entries = new Map<string, CachedElement>();
  /** Each phone uid keeps one number for the life of the server, so the same element gets the same id. */
  private readonly numbers = new Map<string, number>();

  constructor(private readonly capacity = ELEMENT_CACHE_SIZE) {}

  /** Caches the element and returns its id. */
  store(uid: string, pid: number): string {
    let number = this.numbers.get(uid);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(uid, number);
    }
    const id = formatElementId(number, pid);
    this.entries.delete(id);
    this.entries.set(id, { uid, pid });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return id;
  }

  /** Looks an id up (case-insensitively) and marks it recently used. */
  get(id: string): CachedElement | undefined {
    const key = id.toUpperCase();
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

export function staleElementMessage(id: string): string {
  return `The element identified by "${id}" is either not present or it has expired from the internal cache. Try to find it again`;
}

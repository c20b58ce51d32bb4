import type { Rect, Role } from '@apex/port';

/**
 * A short id that stays the same for the same element on the same screen: 6 hex of a hash of the role, the
 * bounds rounded to whole points, the label, and the path of sibling indexes from the root (so two equal
 * elements at different places in the tree differ). Nothing session-specific goes in. The hash is not a
 * security boundary (collisions are made unique by `ElementIds`), so a cheap one: a digest per element was a
 * sixth of reading a screen.
 */
export function elementId(role: Role, bounds: Rect, label: string | undefined, indexPath: readonly number[]): string {
  const key = [
    role,
    Math.round(bounds.x),
    Math.round(bounds.y),
    Math.round(bounds.width),
    Math.round(bounds.height),
    label ?? '',
    indexPath.join('.'),
  ].join('|');
  return (hash32(key) & 0xffffff).toString(16).padStart(6, '0');
}

/** FNV-1a over the UTF-16 code units, then murmur3's finalizer so every input bit reaches the low 24 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Keeps one screen's ids unique: the first element with an id keeps it, the next ones with the same id get
 * `-2`, `-3`, … in document order (deterministic for the same screen). A suffixed id cannot collide with an
 * unsuffixed one: those are bare hex.
 */
export class ElementIds {
  private readonly seen = new Map<string, number>();

  unique(id: string): string {
    const count = (this.seen.get(id) ?? 0) + 1;
    this.seen.set(id, count);
    return count === 1 ? id : `${id}-${count}`;
  }

  /** `elementId` made unique on this screen. */
  of(role: Role, bounds: Rect, label: string | undefined, indexPath: readonly number[]): string {
    return this.unique(elementId(role, bounds, label, indexPath));
  }
}

import { createHash } from 'node:crypto';
import type { Rect, Role } from '@apex/port';

/**
 * A short id that stays the same for the same element on the same screen: 6 hex of a hash of the role, the
 * bounds rounded to whole points, the label, and the path of sibling indexes from the root (so two equal
 * elements at different places in the tree differ). Nothing session-specific goes in.
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
  return createHash('sha1').update(key).digest('hex').slice(0, 6);
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

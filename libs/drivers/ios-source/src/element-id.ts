import { createHash } from 'node:crypto';
import type { Rect, Role } from '@apex/port';

/**
 * A short id that stays the same for the same element on the same screen: derived from the role, the
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

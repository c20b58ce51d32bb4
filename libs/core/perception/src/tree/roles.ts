import type { Role } from '@apex/port';

/** Roles a user can act on (tap, type into, toggle, slide). */
const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>([
  'button',
  'textField',
  'secureTextField',
  'searchField',
  'switch',
  'slider',
  'cell',
  'link',
  'key',
  'icon',
]);

/** Containers worth keeping around interactive nodes: they say where an element is. */
export const STRUCTURAL_ROLES: ReadonlySet<Role> = new Set<Role>([
  'app',
  'alert',
  'keyboard',
  'navigationBar',
  'tabBar',
  'toolbar',
  'list',
]);

/** Roles that add nothing by themselves when they carry no text. */
export const WRAPPER_ROLES: ReadonlySet<Role> = new Set<Role>(['other', 'window', 'list']);

export function isInteractive(role: Role): boolean {
  return INTERACTIVE_ROLES.has(role);
}

import type { Role } from '@apex/port';

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

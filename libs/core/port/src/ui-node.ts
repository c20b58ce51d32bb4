import type { Rect } from './geometry';

/** The neutral roles every driver maps its platform's element types onto. */
export const ROLES = [
  'button',
  'text',
  'textField',
  'secureTextField',
  'searchField',
  'switch',
  'slider',
  'cell',
  'list',
  'image',
  'icon',
  'link',
  'keyboard',
  'key',
  'alert',
  'navigationBar',
  'tabBar',
  'toolbar',
  'window',
  'app',
  'other',
] as const;

export type Role = (typeof ROLES)[number];

/** One element of the screen, already normalized by its driver. Bounds are in points. */
export interface UiNode {
  /** Stable for the same element on the same screen (derived from role, position and label, not a session). */
  id: string;
  role: Role;
  label?: string;
  value?: string;
  placeholder?: string;
  bounds: Rect;
  enabled: boolean;
  visible: boolean;
  selected: boolean;
  focused: boolean;
  children: UiNode[];
}

/** Roles a user can act on (tap, type into, toggle, slide): the one list every layer ranks elements by. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>([
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

export function isInteractive(role: string): boolean {
  return INTERACTIVE_ROLES.has(role as Role);
}

/** Roles a user types into: the one list drivers normalize placeholders by and look for the keyboard's owner with. */
export const TEXT_INPUT_ROLES: ReadonlySet<Role> = new Set<Role>(['textField', 'secureTextField', 'searchField']);

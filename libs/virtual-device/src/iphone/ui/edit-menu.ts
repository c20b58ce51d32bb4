import type { Env } from '../apps/app';
import type { View } from '../../engine/view';
import { editMenuWindow, type MenuItem } from './context-menu';
import type { TextInput } from '../../engine/ui/text-input';

/**
 * The items iOS offers for a text input: with the text selected Cut, Copy (and Paste); otherwise Select All
 * when there is text, and Paste when the pasteboard holds text.
 */
export function editMenuItems(input: TextInput, env: Env): MenuItem[] {
  const clipboard = env.pasteboard.text();
  const paste: MenuItem[] = clipboard ? [{ label: 'Paste', action: () => input.paste(clipboard) }] : [];
  if (input.allSelected && input.text) {
    return [
      { label: 'Cut', action: () => (env.pasteboard.setText(input.text), input.clear()) },
      { label: 'Copy', action: () => env.pasteboard.setText(input.text) },
      ...paste,
    ];
  }
  const selectAll: MenuItem[] = input.text
    ? [
        {
          label: 'Select All',
          action: () => {
            input.allSelected = true;
            input.menuOpen = true;
          },
        },
      ]
    : [];
  return [...selectAll, ...paste];
}

/** The edit menu's window over `anchor` (the view that edits `input`), or nothing when it has no items. */
export function editMenuFor(env: Env, anchor: View, input: TextInput): View | null {
  const items = editMenuItems(input, env);
  if (items.length === 0) return null;
  return editMenuWindow(env, 'edit-menu', anchor.rect, items, () => (input.menuOpen = false));
}

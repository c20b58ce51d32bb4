import { ApexError } from '@apex/errors';
import type { Rect, UiNode } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { getUiTree } from '../primitives/ui-tree';
import { DeviceRefs, type ResolvedElement, type TreeRefs } from './element-refs';

const books = new WeakMap<DeviceHub, Map<string, DeviceRefs>>();

/** The refs of a device's session on this hub (one book per device, kept as long as the hub). */
export function deviceRefs(hub: DeviceHub, deviceId: string): DeviceRefs {
  let book = books.get(hub);
  if (!book) {
    book = new Map();
    books.set(hub, book);
  }
  let refs = book.get(deviceId);
  if (!refs) {
    refs = new DeviceRefs();
    book.set(deviceId, refs);
  }
  return refs;
}

/** The refs of a tree just read from the device. */
export function treeRefs(hub: DeviceHub, deviceId: string, tree: UiNode): TreeRefs {
  return deviceRefs(hub, deviceId).forTree(tree);
}

/**
 * Where the element `ref` names is now: one read of the tree. An element no longer on the screen (or a pixel
 * match whose screen changed) is `element_not_found`, never a stale point.
 */
export async function resolveRef(hub: DeviceHub, deviceId: string, ref: string, tree?: UiNode): Promise<ResolvedElement> {
  const [current, screen] = await Promise.all([tree ?? getUiTree(hub, deviceId), hub.screen(deviceId)]);
  const screenRect: Rect = { x: 0, y: 0, width: screen.width, height: screen.height };
  const found = deviceRefs(hub, deviceId).resolve(ref, current, screenRect);
  if (found) return found;
  throw new ApexError('element_not_found', `No element ${ref} on the current screen of device ${deviceId}: it is gone or the screen changed.`, {
    hint: 'Observe again (describe_screen or find_text) and use a ref from the new result.',
  });
}

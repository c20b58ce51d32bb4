import { ApexError } from '@apex/errors';
import type { Rect, UiNode } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { getUiTree } from '../primitives/ui-tree';
import type { DeviceRefs, ResolvedElement, TreeRefs } from './element-refs';

/** The refs of a device's registration on the hub (the hub drops them when it unregisters the device). */
export function deviceRefs(hub: DeviceHub, deviceId: string): DeviceRefs {
  return hub.refs(deviceId);
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

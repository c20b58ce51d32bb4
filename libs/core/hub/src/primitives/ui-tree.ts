import type { DeviceHub } from '../hub/device-hub';
import type { UiNode } from '@apex/port';

/** The current screen's normalized element tree. */
export async function getUiTree(hub: DeviceHub, deviceId?: string): Promise<UiNode> {
  const id = hub.resolve(deviceId);
  return hub.run(id, 'read the screen elements', (driver, signal) => driver.uiTree(signal), { slow: true });
}

import type { DeviceHub } from '../hub/device-hub';
import type { UiNode } from '@apex/port';

/** The current screen's normalized element tree. */
export async function getUiTree(hub: DeviceHub, deviceId: string): Promise<UiNode> {
  return hub.run(deviceId, 'read the screen elements', (driver, signal) => driver.uiTree(signal), { slow: true });
}

import { captureScreen, deviceStatus, getUiTree, type CapturedScreen, type DeviceHub } from '@apex/hub';
import type { DriverStatus, UiNode } from '@apex/port';

/** What perception reads from a device: every read goes through the hub (queued, timed out, health-tracked). */
export interface DeviceView {
  screenshot(deviceId: string): Promise<CapturedScreen>;
  uiTree(deviceId: string): Promise<UiNode>;
  status(deviceId: string): Promise<ScreenContext>;
}

/** The part of a device's status a screen description reports. */
export type ScreenContext = Pick<DriverStatus, 'screen' | 'orientation' | 'foregroundApp'>;

export function hubDeviceView(hub: DeviceHub): DeviceView {
  return {
    screenshot: (deviceId) => captureScreen(hub, deviceId),
    uiTree: (deviceId) => getUiTree(hub, deviceId),
    status: async (deviceId) => {
      const status = await deviceStatus(hub, deviceId);
      return { screen: status.screen, orientation: status.orientation, foregroundApp: status.foregroundApp };
    },
  };
}

import { captureScreen, deviceStatus, getUiTree, type DeviceHub } from '@apex/hub';
import type { RawScreenshot, ScreenGeometry, UiNode } from '@apex/port';

/** What perception reads from a device: every read goes through the hub (queued, timed out, health-tracked). */
export interface DeviceView {
  screenshot(deviceId: string): Promise<RawScreenshot & { screen: ScreenGeometry }>;
  uiTree(deviceId: string): Promise<UiNode>;
  status(deviceId: string): Promise<DeviceSummary>;
}

export interface DeviceSummary {
  screen: ScreenGeometry;
  orientation?: 'portrait' | 'landscape';
  foregroundApp?: { appId: string; name?: string };
}

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

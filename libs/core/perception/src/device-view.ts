import { captureScreen, foregroundApp, getUiTree, type CapturedScreen, type DeviceHub } from '@apex/hub';
import type { AppRef, UiNode } from '@apex/port';

/** What perception reads from a device: every read goes through the hub (queued, timed out, health-tracked). */
export interface DeviceView {
  screenshot(deviceId: string): Promise<CapturedScreen>;
  uiTree(deviceId: string): Promise<UiNode>;
  /** The app whose screen `tree` is (read with the tree just before). */
  foregroundApp(deviceId: string, tree: UiNode): Promise<AppRef | undefined>;
}

export function hubDeviceView(hub: DeviceHub): DeviceView {
  /**
   * The foreground app last read per device, with the label of the tree's root (the app's own name) it was
   * read under: a screen whose root still carries that label reuses it (the same app is still in front), so
   * the device is asked (one cheap read) only when the tree says the app changed.
   */
  const apps = new Map<string, { rootLabel: string; app: AppRef | undefined }>();
  return {
    screenshot: (deviceId) => captureScreen(hub, deviceId),
    uiTree: (deviceId) => getUiTree(hub, deviceId),
    foregroundApp: async (deviceId, tree) => {
      const known = apps.get(deviceId);
      if (tree.label !== undefined && known?.rootLabel === tree.label) return known.app;
      const app = await foregroundApp(hub, deviceId);
      if (tree.label === undefined) apps.delete(deviceId);
      else apps.set(deviceId, { rootLabel: tree.label, app });
      return app;
    },
  };
}

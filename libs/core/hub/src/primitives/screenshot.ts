import type { ScreenGeometry, RawScreenshot } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';

/** One capture: the native-resolution PNG and the screen geometry it shows. */
export interface CapturedScreen extends RawScreenshot {
  screen: ScreenGeometry;
}

/** Captures the screen once (native PNG). Encoding it for a client is take_screenshot's job, not the device's. */
export async function captureScreen(hub: DeviceHub, deviceId: string, options: { signal?: AbortSignal } = {}): Promise<CapturedScreen> {
  const raw = await hub.run(deviceId, 'take a screenshot', (driver, signal) => driver.screenshot(signal), { slow: true, signal: options.signal });
  // The capture is the truth about the current orientation: keep the cached geometry in step with it.
  const screen = { width: Math.round(raw.width / raw.scale), height: Math.round(raw.height / raw.scale), scale: raw.scale };
  hub.noteScreen(deviceId, screen);
  return { ...raw, screen };
}

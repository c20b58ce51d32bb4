import type { DeviceHub } from '../hub/device-hub';

/** Types into the focused input; `submit` presses return afterwards. */
export async function inputText(hub: DeviceHub, deviceId: string, args: { text: string; submit?: boolean }): Promise<void> {
  hub.rememberTypedText(deviceId, args.text);
  await hub.run(deviceId, 'type text', (driver, signal) => driver.typeText({ text: args.text, submit: args.submit ?? false }, signal));
}

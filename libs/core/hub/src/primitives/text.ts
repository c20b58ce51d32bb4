import type { DeviceHub } from '../hub/device-hub';
import { InputTextSchema } from './schemas';
import { parseInput } from './validate';

/** Types into the focused input; `submit` presses return afterwards. */
export async function inputText(hub: DeviceHub, deviceId: string | undefined, args: { text: string; submit?: boolean }): Promise<void> {
  const parsed = parseInput(InputTextSchema, args, 'text input');
  const id = hub.resolve(deviceId);
  await hub.run(id, 'type text', (driver, signal) => driver.typeText({ text: parsed.text, submit: parsed.submit ?? false }, signal));
}

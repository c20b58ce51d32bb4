import { runTool, ToolMissing, type RunToolOptions } from './run-tool';

/** An iPhone the USB service (usbmuxd) reports, through go-ios. */
export interface UsbIPhone {
  udid: string;
  /** Apple's model identifier, e.g. "iPhone14,5". */
  model: string;
  osVersion: string;
  /** "USB" or "Network" where go-ios says. */
  connection?: string;
}

/** What listing USB iPhones found, and why not when it could not look. */
export interface UsbIPhoneListing {
  devices: UsbIPhone[];
  /** Set when nothing could be listed: no go-ios, or no USB service on this machine. */
  unavailable?: string;
}

/**
 * Reads `ios list --details` (go-ios, JSON by default): `{"deviceList":[{"Udid","ProductName","ProductType",
 * "ProductVersion","ConnectionType"?}]}` — `ConnectionType` only in newer releases.
 */
export function parseUsbIPhones(json: string): UsbIPhone[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const list = (parsed as { deviceList?: unknown } | null)?.deviceList;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: Record<string, unknown>) =>
    typeof entry?.Udid === 'string' && entry.Udid !== ''
      ? [
          {
            udid: entry.Udid,
            model: typeof entry.ProductType === 'string' ? entry.ProductType : '',
            osVersion: typeof entry.ProductVersion === 'string' ? entry.ProductVersion : '',
            ...(typeof entry.ConnectionType === 'string' ? { connection: entry.ConnectionType } : {}),
          },
        ]
      : [],
  );
}

/** The iPhones on USB (or paired over the network), via the go-ios binary `ios`. */
export async function listUsbIPhones(iosBinary: string, options: RunToolOptions): Promise<UsbIPhoneListing> {
  let result;
  try {
    result = await runTool(iosBinary, ['list', '--details'], options);
  } catch (error) {
    if (error instanceof ToolMissing) return { devices: [], unavailable: 'go-ios is not installed (npm i go-ios, or set ios.goIos)' };
    throw error;
  }
  if (result.code !== 0) {
    // go-ios prints its failure as a JSON log line on stderr; the usual one here is the missing USB service.
    const noService = /usbmuxd/.test(result.stderr + result.stdout);
    return { devices: [], unavailable: noService ? 'no USB device service (usbmuxd) on this machine' : 'go-ios could not list devices' };
  }
  return { devices: parseUsbIPhones(result.stdout) };
}

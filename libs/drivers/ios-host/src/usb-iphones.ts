import { runTool, ToolMissing, type RunToolOptions } from './run-tool';

/** An iPhone the USB service (usbmuxd) reports, through go-ios or libimobiledevice. */
export interface UsbIPhone {
  udid: string;
  /** Apple's model identifier, e.g. "iPhone14,5". */
  model: string;
  osVersion: string;
  /** The name the person gave the phone ("Ada's iPhone"), where the tool says. */
  name?: string;
  /** "USB" or "Network" where go-ios says. */
  connection?: string;
}

/**
 * The host tools that reach USB iPhones: go-ios' `ios` binary, else libimobiledevice's (`idevice_id`,
 * `ideviceinfo`, `iproxy`) when go-ios is not installed.
 */
export type UsbTools = { kind: 'go-ios'; binary: string } | { kind: 'libimobiledevice' };

/** What listing USB iPhones found, through which tools, and why not when it could not look. */
export interface UsbIPhoneListing {
  devices: UsbIPhone[];
  /** The tools that listed them (and forward their ports); absent when neither is installed. */
  tools?: UsbTools;
  /** Set when nothing could be listed: no tools, or no USB service on this machine. */
  unavailable?: string;
}

const NO_USB_SERVICE = 'no USB device service (usbmuxd) on this machine';

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

/**
 * Reads `idevice_id -l` (libimobiledevice's tools/idevice_id.c): one UDID a line, followed by " (USB)" or
 * " (Network)" only when both kinds are asked for.
 */
export function parseDeviceIds(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((udid) => /^[0-9A-Za-z-]+$/.test(udid));
}

/** The iPhones on USB (or paired over the network), via go-ios' `ios`, else libimobiledevice. */
export async function listUsbIPhones(iosBinary: string, options: RunToolOptions): Promise<UsbIPhoneListing> {
  let result;
  try {
    result = await runTool(iosBinary, ['list', '--details'], options);
  } catch (error) {
    if (error instanceof ToolMissing) return listWithLibimobiledevice(options);
    throw error;
  }
  const tools: UsbTools = { kind: 'go-ios', binary: iosBinary };
  if (result.code !== 0) {
    // go-ios prints its failure as a JSON log line on stderr; the usual one here is the missing USB service.
    const noService = /usbmuxd/.test(result.stderr + result.stdout);
    return { devices: [], tools, unavailable: noService ? NO_USB_SERVICE : 'go-ios could not list devices' };
  }
  return { devices: parseUsbIPhones(result.stdout), tools };
}

/** `idevice_id -l`, then `ideviceinfo -u UDID -k KEY` (prints the value alone) for each phone's details. */
async function listWithLibimobiledevice(options: RunToolOptions): Promise<UsbIPhoneListing> {
  let result;
  try {
    result = await runTool('idevice_id', ['-l'], options);
  } catch (error) {
    if (error instanceof ToolMissing) {
      return { devices: [], unavailable: 'neither go-ios nor libimobiledevice is installed (npm i go-ios, or set ios.goIos)' };
    }
    throw error;
  }
  const tools: UsbTools = { kind: 'libimobiledevice' };
  // Without the USB service it prints "ERROR: Unable to retrieve device list!" and exits non-zero.
  if (result.code !== 0) return { devices: [], tools, unavailable: NO_USB_SERVICE };
  const value = async (udid: string, key: string) => {
    const answer = await runTool('ideviceinfo', ['-u', udid, '-k', key], options);
    return answer.code === 0 ? answer.stdout.trim() : '';
  };
  const devices = await Promise.all(
    parseDeviceIds(result.stdout).map(async (udid): Promise<UsbIPhone> => {
      const [osVersion, model, name] = await Promise.all([value(udid, 'ProductVersion'), value(udid, 'ProductType'), value(udid, 'DeviceName')]);
      return { udid, model, osVersion, ...(name ? { name } : {}) };
    }),
  );
  return { devices, tools };
}

/** The command that forwards `hostPort` on this host to `devicePort` on the iPhone, until it is ended. */
export function portForwardCommand(tools: UsbTools, udid: string, hostPort: number, devicePort: number): { command: string; args: string[] } {
  return tools.kind === 'go-ios'
    ? { command: tools.binary, args: ['forward', String(hostPort), String(devicePort), `--udid=${udid}`] }
    : // libusbmuxd's tools/iproxy.c: `iproxy [OPTIONS] LOCAL_PORT:DEVICE_PORT`, `-u, --udid UDID`.
      { command: 'iproxy', args: [`${hostPort}:${devicePort}`, '-u', udid] };
}

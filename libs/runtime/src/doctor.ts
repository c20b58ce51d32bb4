import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { listAdbDevices, type AdbDeviceEntry } from '@apex/driver-adb';
import { findXcode, listBootedSimulators, listUsbIPhones } from '@apex/ios-host';
import { resolveDataDir } from '@apex/tasks';
import { DEFAULT_ADB_SERVER, type ApexConfig } from './config';
import { hostPort } from './drivers';

/** One line of `apex doctor`: what was checked, what was found, and the fix when it is not ready. */
export interface DoctorLine {
  ok: boolean;
  item: string;
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  lines: DoctorLine[];
  /** Phones found that Apex can drive now (or prepare itself on first use); the virtual phones are not counted. */
  usableDevices: number;
}

export interface DoctorOptions {
  config?: ApexConfig;
  /** Default: as the runtime resolves it (APEX_DATA_DIR, the config's dataDir, ~/.apex). */
  dataDir?: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

const MIN_NODE_MAJOR = 20;
/** The npm package that ships the automation agent's Xcode project (Appium's). */
const AGENT_PACKAGE = 'appium-webdriveragent';

/** The automation agent's Xcode project: the configured one, else the `appium-webdriveragent` package's, if installed. */
export function agentProjectPath(configured: string | undefined): string | undefined {
  if (configured) return path.resolve(configured);
  try {
    // Looked up where the user installs it (Apex does not depend on it), by a name the bundler does not follow.
    const resolveFromCwd = createRequire(path.join(process.cwd(), 'package.json')).resolve;
    return path.join(path.dirname(resolveFromCwd(`${AGENT_PACKAGE}/package.json`)), 'WebDriverAgent.xcodeproj');
  } catch {
    return undefined;
  }
}

/** go-ios' binary: the configured one, else `ios` on PATH (a missing one is reported when it is run). */
export function goIosBinary(configured: string | undefined): string {
  return configured ?? 'ios';
}


function checkNode(): DoctorLine {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= MIN_NODE_MAJOR
    ? { ok: true, item: 'Node.js', detail: process.versions.node }
    : { ok: false, item: 'Node.js', detail: process.versions.node, fix: `Install Node.js ${MIN_NODE_MAJOR} or newer.` };
}

function checkDataDir(dataDir: string): DoctorLine {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
    return { ok: true, item: 'Data directory', detail: dataDir };
  } catch {
    return { ok: false, item: 'Data directory', detail: `${dataDir} cannot be written`, fix: 'Set APEX_DATA_DIR (or dataDir in the config) to a folder you can write.' };
  }
}

async function checkIPhones(options: DoctorOptions): Promise<{ lines: DoctorLine[]; usable: number }> {
  const { signal, env } = options;
  const ios = options.config?.ios;
  const lines: DoctorLine[] = [];
  let usable = 0;
  const xcode = await findXcode({ signal, env });
  lines.push(
    xcode
      ? { ok: true, item: 'Xcode', detail: xcode }
      : { ok: false, item: 'Xcode', detail: 'not found', fix: 'iPhones and simulators need a Mac with Xcode installed (Android phones and the virtual phones do not).' },
  );
  const project = agentProjectPath(ios?.agentProject);
  const projectFound = project !== undefined && existsSync(project);
  if (xcode) {
    lines.push(
      projectFound
        ? { ok: true, item: 'Automation agent project', detail: project }
        : { ok: false, item: 'Automation agent project', detail: 'not found', fix: 'npm i appium-webdriveragent, or set ios.agentProject to its .xcodeproj.' },
    );
  }
  for (const simulator of await listBootedSimulators({ signal, env })) {
    const ready = Boolean(xcode && projectFound);
    if (ready) usable += 1;
    lines.push({
      ok: ready,
      item: `Simulator ${simulator.name}`,
      detail: `iOS ${simulator.osVersion}, ${simulator.udid}${ready ? ' (the automation agent is built on first use)' : ''}`,
      ...(ready ? {} : { fix: 'Install what is missing above.' }),
    });
  }
  const usb = await listUsbIPhones(goIosBinary(ios?.goIos), { signal, env });
  if (usb.unavailable) {
    lines.push({ ok: false, item: 'USB iPhones', detail: usb.unavailable, fix: 'Only needed for a real iPhone: install go-ios (npm i go-ios) or libimobiledevice on a machine with the USB device service.' });
  } else if (usb.tools) {
    lines.push({ ok: true, item: 'USB iPhones', detail: `${usb.devices.length} found through ${usb.tools.kind}` });
  }
  for (const phone of usb.devices) {
    const missing = !xcode || !projectFound ? 'Install what is missing above.' : !ios?.teamId ? 'Set ios.teamId in the config: signing the automation agent for a real iPhone needs a development team.' : undefined;
    if (!missing) usable += 1;
    lines.push({
      ok: !missing,
      item: `iPhone ${phone.name ? `${phone.name} (${phone.udid})` : phone.udid}`,
      detail: `${phone.model}, iOS ${phone.osVersion}${missing ? '' : ' (Developer Mode and trust are checked when Apex prepares it)'}`,
      ...(missing ? { fix: missing } : {}),
    });
  }
  return { lines, usable };
}

const ANDROID_FIXES: Record<string, string> = {
  unauthorized: 'Unlock the phone and accept the "Allow USB debugging?" dialog.',
  offline: 'Reconnect the phone (or restart its adb connection).',
  'no permissions': 'Give your user access to the USB device (udev rules), then reconnect it.',
  authorizing: 'Wait for the phone to finish authorizing, or unlock it.',
  connecting: 'Wait for the phone to finish connecting.',
};

function androidLine(device: AdbDeviceEntry): DoctorLine {
  const name = device.model ? `${device.model.replace(/_/g, ' ')} (${device.serial})` : device.serial;
  if (device.state === 'device') return { ok: true, item: `Android ${name}`, detail: 'ready' };
  return { ok: false, item: `Android ${name}`, detail: device.state, fix: ANDROID_FIXES[device.state] ?? 'Reconnect the phone.' };
}

async function checkAndroid(options: DoctorOptions): Promise<{ lines: DoctorLine[]; usable: number }> {
  const server = options.config?.android?.adbServer ?? DEFAULT_ADB_SERVER;
  let devices: AdbDeviceEntry[];
  try {
    devices = await listAdbDevices(hostPort(server), AbortSignal.any([options.signal, AbortSignal.timeout(5_000)]));
  } catch {
    return {
      lines: [{ ok: false, item: 'Android device service', detail: `nothing answers at ${server}`, fix: 'Only needed for Android phones: install the Android platform tools and run `adb start-server` (or set android.adbServer).' }],
      usable: 0,
    };
  }
  const lines: DoctorLine[] = [{ ok: true, item: 'Android device service', detail: `${server}, ${devices.length} device(s)` }];
  lines.push(...devices.map(androidLine));
  return { lines, usable: devices.filter((d) => d.state === 'device').length };
}

/** Checks this machine for what Apex needs to drive the phones it finds, one line per item with its fix. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const [iphones, android] = await Promise.all([checkIPhones(options), checkAndroid(options)]);
  const configured = options.config?.devices.length ?? 0;
  const lines: DoctorLine[] = [
    checkNode(),
    checkDataDir(options.dataDir ?? resolveDataDir({ configured: options.config?.dataDir }, options.env)),
    ...iphones.lines,
    ...android.lines,
    ...(configured > 0 ? [{ ok: true, item: 'Configured devices', detail: `${configured} (see apex devices for their state)` }] : []),
    { ok: true, item: 'Virtual phones', detail: 'built in, for trying Apex without a phone (not counted here)' },
  ];
  return { lines, usableDevices: iphones.usable + android.usable };
}

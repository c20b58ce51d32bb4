import { ANDROID_RELEASE, ANDROID_SDK, BUILD_ID } from '../../profiles';
import type { SettingsNamespace } from '../../system/android-system';
import type { Command, CommandIO } from '../command';
import { cmdPackage } from './packages';
import { locationCommand, notificationCommand } from './environment';
import { DISPLAY_UNIQUE_ID } from './dumpsys';

/** The system properties `getprop` prints. */
export function properties(io: CommandIO): Record<string, string> {
  const p = io.phone.profile;
  return {
    'ro.build.version.release': ANDROID_RELEASE,
    'ro.build.version.release_or_codename': ANDROID_RELEASE,
    'ro.build.version.sdk': String(ANDROID_SDK),
    'ro.build.version.security_patch': '2024-02-05',
    'ro.build.version.codename': 'REL',
    'ro.build.id': BUILD_ID,
    'ro.build.type': 'user',
    'ro.build.tags': 'release-keys',
    'ro.build.fingerprint': `${p.brand}/${p.product}/${p.device}:${ANDROID_RELEASE}/${BUILD_ID}/11228894:user/release-keys`,
    'ro.product.model': p.model,
    'ro.product.manufacturer': p.manufacturer,
    'ro.product.brand': p.brand,
    'ro.product.name': p.product,
    'ro.product.device': p.device,
    'ro.product.cpu.abi': 'arm64-v8a',
    'ro.product.cpu.abilist': 'arm64-v8a,armeabi-v7a,armeabi',
    'ro.serialno': p.serial,
    'ro.boot.serialno': p.serial,
    'ro.sf.lcd_density': String(p.density),
    'ro.hardware': p.device,
    'ro.debuggable': '0',
    'ro.secure': '1',
    'ro.kernel.qemu': '0',
    'persist.sys.locale': 'en-US',
    'persist.sys.timezone': 'UTC',
    'sys.boot_completed': '1',
    'dev.bootcomplete': '1',
    'service.adb.root': '0',
    'init.svc.bootanim': 'stopped',
  };
}

export const getprop: Command = (argv, io) => {
  const props = properties(io);
  if (argv[1] !== undefined) {
    io.out(`${props[argv[1]] ?? argv[2] ?? ''}\n`);
    return 0;
  }
  for (const key of Object.keys(props).sort()) io.out(`[${key}]: [${props[key]}]\n`);
  return 0;
};

function namespace(s: string | undefined): SettingsNamespace | null {
  return s === 'system' || s === 'secure' || s === 'global' ? s : null;
}

/** `settings get|put|delete|list system|secure|global …`. Writes go live (the screen follows). */
export const settings: Command = (argv, io) => {
  const args = argv.slice(1).filter((a, i, all) => !(a === '--user' || all[i - 1] === '--user'));
  const [verb, nsArg, key, ...value] = args;
  const ns = namespace(nsArg);
  const phone = io.phone;
  if (!ns || verb === undefined) {
    io.err(`Invalid namespace '${nsArg ?? ''}'\n`);
    return 255;
  }
  switch (verb) {
    case 'get':
      io.out(`${key === undefined ? 'null' : (phone.system.get(ns, key) ?? 'null')}\n`);
      return 0;
    case 'put':
      if (key === undefined || value.length === 0) {
        io.err('Usage: put NAMESPACE KEY VALUE\n');
        return 255;
      }
      phone.setSetting(() => phone.system.put(ns, key, value[0]));
      return 0;
    case 'delete':
      io.out(`Deleted ${key !== undefined && phone.system.delete(ns, key) ? 1 : 0} rows\n`);
      return 0;
    case 'list':
      for (const [k, v] of phone.system.list(ns)) io.out(`${k}=${v}\n`);
      return 0;
    default:
      io.err(`Invalid command: ${verb}\n`);
      return 255;
  }
};

/** `content insert --uri content://settings/<ns> --bind name:s:KEY --bind value:<t>:VALUE` (the settings provider only). */
export const content: Command = (argv, io) => {
  const [verb, ...args] = argv.slice(1);
  let uri: string | undefined;
  const binds: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--uri') uri = args[++i];
    else if (args[i] === '--bind') {
      const m = /^([^:]+):[a-z]:(.*)$/.exec(args[++i] ?? '');
      if (m) binds[m[1]] = m[2];
    }
  }
  const ns = namespace(/^content:\/\/settings\/(\w+)$/.exec(uri ?? '')?.[1]);
  if (verb !== 'insert' || !ns || binds.name === undefined || binds.value === undefined) {
    io.err(`Error while accessing provider:${uri ?? ''}\njava.lang.IllegalArgumentException: Unsupported operation\n`);
    return 1;
  }
  io.phone.setSetting(() => io.phone.system.put(ns, binds.name, binds.value));
  return 0;
};

/** `svc wifi|bluetooth|data enable|disable`. */
export const svc: Command = (argv, io) => {
  const [what, verb] = argv.slice(1);
  const on = verb === 'enable' ? true : verb === 'disable' ? false : null;
  const s = io.phone.system;
  if (on === null || !['wifi', 'bluetooth', 'data'].includes(what ?? '')) {
    if (what === 'power') return 0;
    io.err(`Usage: svc ${what ?? '[command]'} [enable|disable]\n`);
    return 1;
  }
  io.phone.setSetting(() => {
    if (what === 'wifi') s.wifi = on;
    else if (what === 'bluetooth') s.bluetooth = on;
    else s.mobileData = on;
  });
  return 0;
};

/** `cmd SERVICE …`: package, connectivity airplane-mode, uimode night, statusbar, display get-displays, wifi. */
export const cmd: Command = (argv, io) => {
  const [service, ...args] = argv.slice(1);
  const phone = io.phone;
  const s = phone.system;
  switch (service) {
    case 'package':
      return cmdPackage(args, io);
    case 'notification':
      return notificationCommand(args, io);
    case 'location':
      return locationCommand(args, io);
    case 'connectivity':
      if (args[0] === 'airplane-mode') {
        if (args[1] === undefined) io.out(`${s.airplaneMode ? 'enabled' : 'disabled'}\n`);
        else if (args[1] === 'enable' || args[1] === 'disable') phone.setSetting(() => (s.airplaneMode = args[1] === 'enable'));
        else return usage(io, 'airplane-mode [enable|disable]');
        return 0;
      }
      return usage(io, 'airplane-mode [enable|disable]');
    case 'uimode':
      if (args[0] === 'night') {
        if (args[1] === 'yes' || args[1] === 'no') phone.setSetting(() => (s.dark = args[1] === 'yes'));
        else if (args[1] !== undefined) return usage(io, 'night [yes|no]');
        io.out(`Night mode: ${s.dark ? 'yes' : 'no'}\n`);
        return 0;
      }
      return usage(io, 'night [yes|no]');
    case 'wifi':
      if (args[0] === 'set-wifi-enabled' && (args[1] === 'enabled' || args[1] === 'disabled')) {
        phone.setSetting(() => (s.wifi = args[1] === 'enabled'));
        return 0;
      }
      if (args[0] === 'status') {
        io.out(s.wifi ? 'Wifi is enabled\nWifi is connected to "AndroidWifi"\n' : 'Wifi is disabled\n');
        return 0;
      }
      return usage(io, 'set-wifi-enabled enabled|disabled | status');
    case 'statusbar':
      if (args[0] === 'expand-notifications' || args[0] === 'expand-settings') phone.openShade(true);
      else if (args[0] === 'collapse') phone.openShade(false);
      else return usage(io, 'expand-notifications | expand-settings | collapse');
      return 0;
    case 'display':
      if (args[0] === 'get-displays') {
        const { width, height } = phone.screenSizePx();
        const { density } = phone.profile;
        io.out('Displays:\n');
        io.out(
          `Display id 0: DisplayInfo{"Built-in Screen", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real ${width} x ${height}, largest app ${height} x ${height}, smallest app ${width} x ${width}, appVsyncOff 7500000, presDeadline 16666666, mode 1, defaultMode 1, rotation ${phone.rotation()}, state ${phone.isAwake() ? 'ON' : 'OFF'}, committedState ${phone.isAwake() ? 'ON' : 'OFF'}, type INTERNAL, uniqueId "local:${DISPLAY_UNIQUE_ID}", app ${width} x ${height}, density ${density} (${density}.0 x ${density}.0) dpi, layerStack 0, colorMode 0, supportedColorModes [0], address {port=0, model=0x401cec6a7a2b7b}, deviceProductInfo null, removeMode 0, refreshRateOverride 0.0, brightnessMinimum 0.0, brightnessMaximum 1.0, brightnessDefault 0.4, installOrientation ROTATION_0}\n`,
        );
        return 0;
      }
      return usage(io, 'get-displays');
    default:
      io.err(`cmd: Can't find service: ${service ?? ''}\n`);
      return 20;
  }
};

function usage(io: CommandIO, text: string): number {
  io.err(`Usage: ${text}\n`);
  return 255;
}

export { logcat } from './logcat';

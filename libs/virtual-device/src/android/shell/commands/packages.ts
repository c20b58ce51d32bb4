import { shortClass } from '../../android-phone';
import type { AndroidAppDefinition } from '../../apps/app';
import { LAUNCHER_ACTIVITY, LAUNCHER_PACKAGE } from '../../apps/launcher';
import { PERMISSION_CONTROLLER } from '../../ui/permission-dialog';
import { SYSTEMUI } from '../../ui/system-bars';
import { stableHash, type Command, type CommandIO } from '../command';
import { NORMAL_PERMISSIONS, permissionGroup, type PermissionFlag } from '../../device/runtime-permissions';
import { declaredPermissions, install, uninstall } from './install';

/** Packages that exist without a launcher icon. */
const SYSTEM_PACKAGES = ['android', SYSTEMUI, PERMISSION_CONTROLLER, LAUNCHER_PACKAGE, 'com.google.android.inputmethod.latin', 'com.android.shell', 'com.android.providers.settings'];

function apkPath(app: AndroidAppDefinition): string {
  const name = app.label.replace(/\s+/g, '');
  return app.thirdParty ? `/data/app/~~${Buffer.from(app.pkg).toString('base64url').slice(0, 22)}==/${app.pkg}-1/base.apk` : `/product/app/${name}/${name}.apk`;
}

function allPackages(io: CommandIO): { pkg: string; path: string; thirdParty: boolean }[] {
  const apps = io.phone.installed().map((a) => ({ pkg: a.pkg, path: apkPath(a), thirdParty: a.thirdParty === true }));
  const system = SYSTEM_PACKAGES.map((pkg) => ({ pkg, path: pkg === 'android' ? '/system/framework/framework-res.apk' : `/system/priv-app/${pkg.split('.').pop()}/${pkg.split('.').pop()}.apk`, thirdParty: false }));
  return [...apps, ...system].sort((a, b) => a.pkg.localeCompare(b.pkg));
}

const FEATURES = [
  'android.hardware.audio.output',
  'android.hardware.bluetooth',
  'android.hardware.bluetooth_le',
  'android.hardware.camera',
  'android.hardware.faketouch',
  'android.hardware.location',
  'android.hardware.location.gps',
  'android.hardware.screen.landscape',
  'android.hardware.screen.portrait',
  'android.hardware.telephony',
  'android.hardware.touchscreen',
  'android.hardware.touchscreen.multitouch',
  'android.hardware.wifi',
  'android.software.app_widgets',
  'android.software.input_methods',
  'android.software.webview',
];

/** `pm list packages [-3|-s] [-f] [FILTER]`, `pm path`, `pm list features`, `pm grant|revoke`. */
export const pm: Command = (argv, io) => packageCommand(argv.slice(1), io);

function packageCommand(args: string[], io: CommandIO): number | Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list' && (rest[0] === 'packages' || rest[0] === 'package')) {
    const flags = rest.slice(1).filter((a) => a.startsWith('-')).join('');
    const filter = rest.slice(1).find((a) => !a.startsWith('-'));
    for (const p of allPackages(io)) {
      if (flags.includes('3') && !p.thirdParty) continue;
      if (flags.includes('s') && p.thirdParty) continue;
      if (filter && !p.pkg.includes(filter)) continue;
      io.out(flags.includes('f') ? `package:${p.path}=${p.pkg}\n` : `package:${p.pkg}\n`);
    }
    return 0;
  }
  if (sub === 'list' && rest[0] === 'features') {
    for (const f of FEATURES) io.out(`feature:${f}\n`);
    return 0;
  }
  if (sub === 'path') {
    const p = allPackages(io).find((x) => x.pkg === rest[0]);
    if (!p) return 1;
    io.out(`package:${p.path}\n`);
    return 0;
  }
  if (sub === 'grant' || sub === 'revoke' || sub === 'set-permission-flags' || sub === 'clear-permission-flags') return permissionCommand(sub, rest, io);
  if (sub === 'install') return install(rest, io);
  if (sub === 'uninstall') return uninstall(rest, io);
  if (sub === 'clear') {
    const pkg = rest.filter((a) => !a.startsWith('-')).pop();
    if (!pkg || !io.phone.clearData(pkg)) {
      io.out('Failed\n');
      return 1;
    }
    io.out('Success\n');
    return 0;
  }
  if (sub === 'query-activities') return queryActivities(rest, io);
  if (sub === 'resolve-activity') {
    const pkg = rest.filter((a) => !a.startsWith('-')).pop();
    const app = pkg ? io.phone.app(pkg) : undefined;
    if (!app?.launcherActivity) {
      io.out('No activity found\n');
      return 0;
    }
    io.out(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n${app.pkg}/${app.launcherActivity}\n`);
    return 0;
  }
  io.err(`Unknown command: ${sub ?? ''}\n`);
  return 255;
}

/** PackageManager's answer to the shell for a permission it cannot change (exit 255, as an uncaught exception). */
function permissionException(io: CommandIO, sub: string, exception: string): number {
  io.err(`Exception occurred while executing '${sub}':\n${exception}\n`);
  return 255;
}

/** `pm grant|revoke [--user N] PKG PERMISSION`, `pm set-permission-flags|clear-permission-flags PKG PERMISSION FLAGS…`. */
function permissionCommand(sub: string, args: string[], io: CommandIO): number {
  const words = args.filter((a, i) => a !== '--user' && args[i - 1] !== '--user');
  const [pkg, permission, ...flags] = words;
  if (!pkg || !permission) {
    io.err(`Error: no package or permission specified\n`);
    return 1;
  }
  if (!io.phone.app(pkg)) return permissionException(io, sub, `java.lang.IllegalArgumentException: Unknown package: ${pkg}`);
  const group = permissionGroup(permission);
  if (!group) {
    if (NORMAL_PERMISSIONS.has(permission)) return permissionException(io, sub, `java.lang.SecurityException: Permission ${permission} requested by ${pkg} is not a changeable permission type`);
    return permissionException(io, sub, `java.lang.IllegalArgumentException: Unknown permission: ${permission}`);
  }
  const declared = declaredPermissions(io, pkg);
  if (declared && !declared.includes(permission)) return permissionException(io, sub, `java.lang.SecurityException: Package ${pkg} has not requested permission ${permission}`);
  if (sub === 'grant' || sub === 'revoke') {
    io.phone.setGrant(pkg, group, sub === 'grant');
    return 0;
  }
  const known = flags.filter((f): f is PermissionFlag => f === 'user-set' || f === 'user-fixed');
  if (known.length !== flags.length || known.length === 0) {
    io.err(`Unknown flag: ${flags.find((f) => f !== 'user-set' && f !== 'user-fixed') ?? ''}\n`);
    return 1;
  }
  io.phone.setPermissionFlags(pkg, group, known, sub === 'set-permission-flags');
  return 0;
}

/** `cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`. */
function queryActivities(args: string[], io: CommandIO): number {
  const apps = io.phone.launchable();
  const brief = args.includes('--brief');
  if (!brief) io.out(`${apps.length} activities found:\n`);
  apps.forEach((app, i) => {
    if (brief) {
      io.out(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n${app.pkg}/${shortClass(app.pkg, app.launcherActivity)}\n`);
      return;
    }
    io.out(
      [
        `  Activity #${i}:`,
        '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
        '    ActivityInfo:',
        `      name=${app.launcherActivity}`,
        `      packageName=${app.pkg}`,
        '      enabled=true exported=true directBootAware=false',
        `      taskAffinity=${app.pkg} targetActivity=null persistableMode=PERSIST_ROOT_ONLY`,
        '      launchMode=0 flags=0x3 privateFlags=0x0 theme=0x0',
        '',
      ].join('\n'),
    );
  });
  return 0;
}

/** `dumpsys package PKG`: version, uid, paths and the runtime permission state. */
export function packageDump(pkg: string | undefined, io: CommandIO): string {
  const app = pkg ? io.phone.app(pkg) : undefined;
  if (!app) return 'Unable to find package: ' + (pkg ?? '') + '\n';
  const lines = [
    'Packages:',
    `  Package [${app.pkg}] (${stableHash(app.pkg)}):`,
    `    userId=${io.phone.uidOf(app.pkg)}`,
    `    pkg=Package{${stableHash(app.pkg + 'pkg')} ${app.pkg}}`,
    `    codePath=${apkPath(app).replace(/\/[^/]+\.apk$/, '')}`,
    `    versionCode=1 minSdk=29 targetSdk=34`,
    `    versionName=${app.versionName}`,
    `    flags=[ ${app.thirdParty ? '' : 'SYSTEM '}HAS_CODE ALLOW_CLEAR_USER_DATA ]`,
    '    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0',
  ];
  const runtime = (declaredPermissions(io, app.pkg) ?? (app.pkg === 'com.google.android.apps.maps' ? ['android.permission.ACCESS_FINE_LOCATION'] : [])).filter((p) => permissionGroup(p));
  if (runtime.length > 0) {
    lines.push('      runtime permissions:');
    for (const permission of runtime) {
      const { granted, flags } = io.phone.permissionFlags(app.pkg, permissionGroup(permission) ?? 'location');
      lines.push(`        ${permission}: granted=${granted}, flags=[ ${flags.join('|')} ]`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `cmd package …` is `pm`. */
export function cmdPackage(args: string[], io: CommandIO): number | Promise<number> {
  return packageCommand(args, io);
}

/** Intent actions of Settings pages. */
const SETTINGS_ACTIONS: Record<string, 'internet' | 'bluetooth' | 'display' | 'about' | 'root'> = {
  'android.settings.SETTINGS': 'root',
  'android.settings.WIFI_SETTINGS': 'internet',
  'android.settings.WIRELESS_SETTINGS': 'internet',
  'android.settings.BLUETOOTH_SETTINGS': 'bluetooth',
  'android.settings.DISPLAY_SETTINGS': 'display',
  'android.settings.DEVICE_INFO_SETTINGS': 'about',
};

/** Options of `am start` that take a value (skipped), and those that take two (extras). */
const ONE_VALUE = new Set(['-t', '-c', '-f', '--user', '--display', '--windowingMode', '--activityType', '-P', '--start-profiler', '--sampling', '--attach-agent', '-i']);
const TWO_VALUES = new Set(['-e', '--es', '--ei', '--ez', '--el', '--ef', '--eu', '--ecn', '--eia', '--ela', '--efa', '--esa', '--esn']);

/** `am start|force-stop`, `am stack`-less subset. */
export const am: Command = (argv, io) => {
  const [sub, ...args] = argv.slice(1);
  if (sub === 'force-stop' || sub === 'kill') {
    const pkg = args.filter((a) => !a.startsWith('-')).pop();
    if (pkg) io.phone.forceStop(pkg);
    return 0;
  }
  if (sub === 'start' || sub === 'start-activity') return amStart(args, io);
  if (sub === 'broadcast') return amBroadcast(args, io);
  io.err(`Unknown command: ${sub ?? ''}\n`);
  return 255;
};

function amStart(args: string[], io: CommandIO): number {
  let action: string | undefined;
  let data: string | undefined;
  let component: string | undefined;
  let wait = false;
  let stopFirst = false;
  let positional: string | undefined;
  const extras: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-e' || a === '--es') {
      extras.push([args[i + 1] ?? '', args[i + 2] ?? '']);
      i += 2;
    } else if (a === '-a') action = args[++i];
    else if (a === '-d') data = args[++i];
    else if (a === '-n') component = args[++i];
    else if (a === '-W') wait = true;
    else if (a === '-S') stopFirst = true;
    else if (ONE_VALUE.has(a)) i++;
    else if (TWO_VALUES.has(a)) i += 2;
    else if (!a.startsWith('-')) positional = a;
  }
  if (!component && positional?.includes('/')) component = positional;
  const phone = io.phone;
  const parts: string[] = [];
  if (action) parts.push(`act=${action}`);
  if (data) parts.push(`dat=${safeUri(data)}`);
  if (component) parts.push(`cmp=${component}`);
  io.out(`Starting: Intent { ${parts.join(' ')} }\n`);
  if (component) {
    const [pkg, cls] = component.split('/');
    const app = phone.app(pkg);
    const fullClass = cls?.startsWith('.') ? `${pkg}${cls}` : cls;
    if (!app || !app.launcherActivity || (fullClass !== app.launcherActivity && !(pkg === LAUNCHER_PACKAGE && fullClass === LAUNCHER_ACTIVITY))) {
      if (pkg === LAUNCHER_PACKAGE) {
        phone.pressHome();
        return 0;
      }
      io.err(`Error type 3\nError: Activity class {${pkg}/${fullClass}} does not exist.\n`);
      return 1;
    }
    if (stopFirst) phone.forceStop(pkg);
    const cold = phone.pidOf(pkg) === undefined;
    phone.launch(pkg, extras);
    if (data) phone.openUrl(data);
    if (wait) io.out(`Status: ok\nLaunchState: ${cold ? 'COLD' : 'HOT'}\nActivity: ${pkg}/${shortClass(pkg, app.launcherActivity)}\nTotalTime: 0\nWaitTime: 0\nComplete\n`);
    return 0;
  }
  if (action && SETTINGS_ACTIONS[action]) {
    phone.openSettingsPage(SETTINGS_ACTIONS[action]);
    return 0;
  }
  if (action === 'android.intent.action.VIEW' && data && phone.openUrl(data)) return 0;
  if (action === 'android.intent.action.MAIN' && !data) {
    phone.pressHome();
    return 0;
  }
  io.err(`Error: Activity not started, unable to resolve Intent { ${parts.join(' ')} flg=0x10000000 }\n`);
  return 1;
}

/**
 * `am broadcast -a ACTION [-d URI] …`. The phone's receivers: the media scanner's (MEDIA_SCANNER_SCAN_FILE with a
 * file:// URI adds a photo or video to the library). Every broadcast completes with result 0, as an unhandled one does.
 */
function amBroadcast(args: string[], io: CommandIO): number {
  let action: string | undefined;
  let data: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-a') action = args[++i];
    else if (args[i] === '-d') data = args[++i];
    else if (ONE_VALUE.has(args[i])) i++;
    else if (TWO_VALUES.has(args[i])) i += 2;
  }
  const parts = [...(action ? [`act=${action}`] : []), ...(data ? [`dat=${data}`] : []), 'flg=0x400000'];
  io.out(`Broadcasting: Intent { ${parts.join(' ')} }\n`);
  if (action === 'android.intent.action.MEDIA_SCANNER_SCAN_FILE' && data?.startsWith('file://')) {
    const path = decodeURIComponent(data.slice('file://'.length));
    io.phone.scanMedia(path, io.files.read(path));
  }
  io.out('Broadcast completed: result=0\n');
  return 0;
}

/** As `Uri.toSafeString()` prints a web address: scheme and host, the rest elided. */
function safeUri(uri: string): string {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(uri);
  return m ? `${m[1]}://${m[2]}/...` : uri;
}

/** `monkey -p PKG -c android.intent.category.LAUNCHER 1`: launches the package, as the monkey's first event. */
export const monkey: Command = (argv, io) => {
  const args = argv.slice(1);
  for (const a of args) io.out(`  bash arg: ${a}\n`);
  io.out(`args: [${args.join(', ')}]\n`);
  for (const a of args) io.out(` arg: "${a}"\n`);
  const pIndex = args.indexOf('-p');
  const pkg = pIndex >= 0 ? args[pIndex + 1] : undefined;
  for (let i = 0; i < args.length; i++) if ((args[i] === '-p' || args[i] === '-c') && args[i + 1] !== undefined) io.out(`data="${args[i + 1]}"\n`);
  if (!pkg || !io.phone.app(pkg)?.launcherActivity) {
    io.out('** No activities found to run, monkey aborted.\n');
    return 252;
  }
  io.phone.launch(pkg);
  io.out('Events injected: 1\n');
  io.out('## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, 14ms not connected)\n');
  return 0;
};

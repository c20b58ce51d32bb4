import { ApexError, echoName } from '@apex/errors';
import type { AppRef, Appearance, DriverStatus, HardwareButton, Orientation } from '@apex/port';
import { okText, shell, shellLine, type AdbContext } from '../adb-context';
import { parseAwake, parseBattery, parseDisplay, parseFocusedPackage, parseKeyguardShowing } from '../parse/dumpsys';
import { commandLine, KEY } from '../shell-words';
import { display, geometryOf, scaleOf } from './screen';

/*
 * The device as a whole: its facts (`getprop`, `dumpsys window|battery|power`), keys (`input keyevent`), the
 * screen's power and lock, rotation (`settings … user_rotation`), night mode (`cmd uimode night`), web
 * addresses (`am start -a android.intent.action.VIEW -d`).
 */

const PROPS = ['ro.product.manufacturer', 'ro.product.model', 'ro.build.version.release'] as const;

const BUTTON_KEYS: Record<HardwareButton, number> = {
  home: KEY.home,
  back: KEY.back,
  recents: KEY.appSwitch,
  volumeUp: KEY.volumeUp,
  volumeDown: KEY.volumeDown,
};

async function text(ctx: AdbContext, argv: string[], signal: AbortSignal): Promise<string> {
  return okText(await shell(ctx, argv, signal));
}

export async function status(ctx: AdbContext, signal: AbortSignal): Promise<DriverStatus> {
  const [props, windows, battery, power] = await Promise.all([
    shellLine(ctx, PROPS.map((p) => commandLine(['getprop', p])).join('; '), signal).then(okText),
    text(ctx, ['dumpsys', 'window'], signal),
    text(ctx, ['dumpsys', 'battery'], signal),
    text(ctx, ['dumpsys', 'power'], signal),
  ]);
  const info = parseDisplay(windows) ?? (await display(ctx, signal));
  ctx.scale = scaleOf(info);
  const [manufacturer, model, release] = props.split('\n').map((line) => line.trim());
  const result: DriverStatus = { platform: 'android', screen: geometryOf(info), orientation: info.rotation % 2 === 1 ? 'landscape' : 'portrait' };
  if (release) result.osVersion = release;
  const fullModel = model && manufacturer && !model.toLowerCase().startsWith(manufacturer.toLowerCase()) ? `${manufacturer} ${model}` : model;
  if (fullModel) {
    result.model = fullModel;
    result.name = fullModel;
  }
  const appId = parseFocusedPackage(windows);
  if (appId) result.foregroundApp = { appId };
  const level = parseBattery(battery);
  if (level) result.battery = level;
  const awake = parseAwake(power);
  if (awake !== undefined) result.locked = !awake || parseKeyguardShowing(windows);
  return result;
}

/** The app in front, from the window manager's focus (one `dumpsys window windows`). */
export async function foregroundApp(ctx: AdbContext, signal: AbortSignal): Promise<AppRef | undefined> {
  const appId = parseFocusedPackage(await text(ctx, ['dumpsys', 'window', 'windows'], signal));
  return appId === undefined ? undefined : { appId };
}

export async function pressButton(ctx: AdbContext, button: HardwareButton, signal: AbortSignal): Promise<void> {
  await text(ctx, ['input', 'keyevent', String(BUTTON_KEYS[button])], signal);
}

/** Sleep turns the screen off (and locks a phone with a lock screen); wake turns it on and dismisses an insecure keyguard. */
export async function setLocked(ctx: AdbContext, locked: boolean, signal: AbortSignal): Promise<void> {
  await text(ctx, ['input', 'keyevent', String(locked ? KEY.sleep : KEY.wakeup)], signal);
  if (locked) return;
  if (!parseKeyguardShowing(await text(ctx, ['dumpsys', 'window'], signal))) return;
  await text(ctx, ['wm', 'dismiss-keyguard'], signal);
  if (parseKeyguardShowing(await text(ctx, ['dumpsys', 'window'], signal))) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} has a secure lock screen (PIN, pattern or password) that Apex cannot unlock.`, {
      hint: 'Unlock the phone by hand, or turn off its screen lock for testing.',
    });
  }
}

/** Turns auto-rotation off and sets the user rotation: 0 portrait, 1 landscape (turned left). */
export async function setOrientation(ctx: AdbContext, orientation: Orientation, signal: AbortSignal): Promise<void> {
  const rotation = orientation === 'portrait' ? '0' : '1';
  await shellLine(
    ctx,
    `${commandLine(['settings', 'put', 'system', 'accelerometer_rotation', '0'])} && ${commandLine(['settings', 'put', 'system', 'user_rotation', rotation])}`,
    signal,
  ).then(okText);
}

export async function setAppearance(ctx: AdbContext, appearance: Appearance, signal: AbortSignal): Promise<void> {
  await text(ctx, ['cmd', 'uimode', 'night', appearance === 'dark' ? 'yes' : 'no'], signal);
}

/** The VIEW intent for the address; no app that handles it → `invalid_argument`. */
export async function openUrl(ctx: AdbContext, url: string, signal: AbortSignal): Promise<void> {
  const result = await shell(ctx, ['am', 'start', '-a', 'android.intent.action.VIEW', '-d', url], signal);
  const output = `${result.stdout.toString('utf8')}${result.stderr.toString('utf8')}`;
  if (/unable to resolve Intent|^Error/m.test(output) || result.exitCode !== 0) {
    throw new ApexError('invalid_argument', `Device ${ctx.deviceId} has no app that opens "${echoName(url)}".`, {
      hint: 'Check the address; web addresses (https://…) open in the browser.',
      cause: new Error(output.slice(0, 500)),
    });
  }
}

import type { BatteryState } from '@apex/port';

/*
 * The lines of Android's own dumps that the driver reads, from AOSP's dump code (frameworks/base:
 * DisplayContent.dump, DisplayRotation.dump, WindowManagerService.dumpWindowsNoHeaderLocked, BatteryService,
 * PowerManagerService, InputMethodManagerService). Each parser takes the whole text and ignores everything
 * it does not know, so other Android versions' extra lines do no harm.
 */

export interface DisplayInfo {
  /** Pixels of the screen in its current rotation (`cur=WxH`). */
  width: number;
  height: number;
  /** The density in effect (`base=… NNNdpi` when overridden, else `init=… NNNdpi`). */
  densityDpi: number;
  /** 0..3 quarter turns (`mRotation=`, or `mDisplayRotation=ROTATION_90`). */
  rotation: 0 | 1 | 2 | 3;
}

/** `dumpsys window displays`: undefined when the text has no display line (not a window dump). */
export function parseDisplay(text: string): DisplayInfo | undefined {
  const cur = /\bcur=(\d+)x(\d+)/.exec(text);
  const density = /\bbase=\d+x\d+ (\d+)dpi/.exec(text) ?? /\binit=\d+x\d+ (\d+)dpi/.exec(text);
  if (!cur || !density) return undefined;
  const quarter = /\bmRotation=(\d)/.exec(text)?.[1] ?? (Number(/\bmDisplayRotation=ROTATION_(\d+)/.exec(text)?.[1] ?? 0) / 90).toString();
  const rotation = Number(quarter);
  return {
    width: Number(cur[1]),
    height: Number(cur[2]),
    densityDpi: Number(density[1]),
    rotation: (rotation >= 0 && rotation <= 3 ? rotation : 0) as DisplayInfo['rotation'],
  };
}

/**
 * The package of the app in front: `mFocusedApp=ActivityRecord{hash u0 PKG/CLS t12}` (the resumed app,
 * also under the notification shade), else `mCurrentFocus=Window{hash u0 PKG/CLS}`.
 */
export function parseFocusedPackage(text: string): string | undefined {
  const app = /\bmFocusedApp=(?:AppWindowToken\{[^}]*token=Token\{[^}]*)?ActivityRecord\{\S+ u\d+ ([^/\s}]+)\//.exec(text);
  if (app) return app[1];
  const window = /\bmCurrentFocus=Window\{\S+ u\d+ ([^/\s}]+)\//.exec(text);
  return window?.[1];
}

/** `dumpsys battery`: `level`, `scale`, `status` (BatteryManager.BATTERY_STATUS_*: 2 charging, 3/4 not, 5 full). */
export function parseBattery(text: string): BatteryState | undefined {
  const level = /^\s*level: (\d+)$/m.exec(text);
  if (!level) return undefined;
  const scale = Number(/^\s*scale: (\d+)$/m.exec(text)?.[1] ?? 100) || 100;
  const status = Number(/^\s*status: (\d+)$/m.exec(text)?.[1] ?? 1);
  const state: BatteryState['state'] = status === 2 ? 'charging' : status === 3 || status === 4 ? 'unplugged' : status === 5 ? 'full' : 'unknown';
  return { level: Math.max(0, Math.min(1, Number(level[1]) / scale)), state };
}

/** `dumpsys power`: `mWakefulness=Awake|Asleep|Dozing|Dreaming`; undefined when absent. */
export function parseAwake(text: string): boolean | undefined {
  const wakefulness = /\bmWakefulness=(\w+)/.exec(text)?.[1];
  return wakefulness === undefined ? undefined : wakefulness === 'Awake';
}

/** The keyguard (lock screen) lines of `dumpsys window` across versions. */
export function parseKeyguardShowing(text: string): boolean {
  return /\b(?:mKeyguardShowing|isStatusBarKeyguard|mShowingLockscreen|mDreamingLockscreen)=true\b/.test(text);
}

/** `dumpsys input_method`: `mInputShown=true` while the soft keyboard is up. */
export function parseKeyboardShown(text: string): boolean {
  return /\bmInputShown=true\b/.test(text);
}

/** A rectangle in pixels: `[left,top][right,bottom]` as the window manager prints it. */
export interface PixelRect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The soft keyboard's window in `dumpsys window InputMethod` (WindowState.dump): its frame while it is visible
 * (`isVisible=true`), from `frame=[l,t][r,b]` (Android 11+: the `Frames:` line) or `mFrame=[l,t][r,b]` (older).
 * Undefined when the keyboard is hidden or the dump gives no frame.
 */
export function parseKeyboardFrame(text: string): PixelRect | undefined {
  const start = text.search(/Window\{[0-9a-f]+ u\d+ InputMethod\}:/);
  if (start < 0) return undefined;
  const rest = text.slice(start);
  const next = rest.search(/\n\s*Window #\d+ /);
  const block = next < 0 ? rest : rest.slice(0, next);
  if (!/\bisVisible=true\b/.test(block)) return undefined;
  const frame = /\s(?:mFrame|frame)=\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]/.exec(block);
  if (!frame) return undefined;
  const [left, top, right, bottom] = frame.slice(1).map(Number) as [number, number, number, number];
  return right > left && bottom > top ? { left, top, right, bottom } : undefined;
}

/** `pm list packages [-f]`: `package:NAME` or `package:/path/base.apk=NAME` per line. */
export function parsePackageList(text: string): string[] {
  const packages: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^package:(?:.*=)?([A-Za-z0-9_.]+)\s*$/.exec(line.trim());
    if (match?.[1]) packages.push(match[1]);
  }
  return packages;
}

export interface LauncherActivity {
  appId: string;
  /** Only where the package declares a plain (not a resource) label: `nonLocalizedLabel=…`. */
  label?: string;
}

/**
 * `cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`: each
 * ResolveInfo's `ActivityInfo:` block holds `packageName=`; `nonLocalizedLabel=` names it when not null.
 * With `--brief` (or `--components`) each match is a `PKG/CLS` line instead.
 */
export function parseLauncherActivities(text: string): LauncherActivity[] {
  const found = new Map<string, LauncherActivity>();
  let current: { appId?: string; label?: string } = {};
  const keep = (): void => {
    if (current.appId && !found.has(current.appId)) found.set(current.appId, current.label === undefined ? { appId: current.appId } : { appId: current.appId, label: current.label });
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (/^Activity #\d+:/.test(line)) {
      keep();
      current = {};
      continue;
    }
    const label = /\bnonLocalizedLabel=(.*?)(?: icon=0x[0-9a-f]+.*)?$/.exec(line)?.[1];
    if (label !== undefined && label !== 'null' && label !== '') current.label ??= label;
    const pkg = /^packageName=([A-Za-z0-9_.]+)$/.exec(line)?.[1];
    if (pkg) current.appId ??= pkg;
    const component = /^([A-Za-z0-9_.]+)\/[A-Za-z0-9_.$]+$/.exec(line)?.[1];
    if (component) {
      keep();
      current = { appId: component };
    }
  }
  keep();
  return [...found.values()];
}

/** `ps -A` (toybox): the NAME column (last) of each process line, header left out. */
export function runningProcessNames(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/).pop() ?? '')
    .filter((name) => name !== '');
}

/**
 * The app whose task is in front, from `dumpsys activity activities`: the resumed activity
 * (`topResumedActivity=` / `ResumedActivity:` / `mResumedActivity:` → `ActivityRecord{hash u0 PKG/CLS tN}`) and
 * the affinity of its task (`Task{hash #N … A=UID:AFFINITY …}` on Android 11+, `TaskRecord{hash #N A=AFFINITY …}`
 * before), which names the app even while another package's activity runs in its task (the permission dialog).
 */
export function parseTopTask(text: string): { pkg: string; affinity?: string } | undefined {
  const resumed = /\b(?:topResumedActivity=|ResumedActivity: |mResumedActivity: )ActivityRecord\{\S+ u\d+ ([^/\s}]+)\/\S+ t(\d+)/.exec(text);
  if (!resumed) return undefined;
  const [, pkg, task] = resumed;
  const taskLine = new RegExp(`\\b(?:Task|TaskRecord)\\{\\S+ #${task} [^}\\n]*?\\bA=(?:\\d+:)?([\\w.]+)`).exec(text);
  return taskLine ? { pkg, affinity: taskLine[1] } : { pkg };
}

/** PackageManager's answer to an install, uninstall or clear: `Success`, or `Failure [CODE: message]` (CODE alone, or a number). */
export function parsePackageManagerResult(text: string): { ok: true } | { ok: false; code: string; message: string } {
  if (/^Success\s*$/m.test(text)) return { ok: true };
  const failure = /Failure \[([A-Z0-9_-]+)(?::\s*([^\]]*))?\]/.exec(text);
  if (failure) return { ok: false, code: failure[1], message: failure[2] ?? '' };
  return { ok: false, code: 'UNKNOWN', message: text.trim().slice(0, 500) };
}

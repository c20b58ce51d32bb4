import { keyboardWindow } from '../../engine/ui/keyboard';
import type { TextInput } from '../../engine/ui/text-input';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';
import { keyguardWindow } from '../ui/keyguard';
import type { PermissionGroup } from './runtime-permissions';
import { permissionDialog, type PermissionAnswer } from '../ui/permission-dialog';
import { notificationShade, quickSettingsTiles, type ShadeNotifications } from '../ui/shade';
import { headsUpWindow } from '../ui/notifications';
import type { PostedNotification } from './notifications';
import { navigationBar, screenOff, statusBar, type NavButton } from '../ui/system-bars';

export const IME_PACKAGE = 'com.google.android.inputmethod.latin';

/** What is on screen, bottom to top, as the window manager stacks it. */
export interface WindowStackState {
  env: AndroidEnv;
  /** Overview, the launcher or the app in front. */
  base: AndroidView;
  /** The launcher or Overview: the status bar draws light icons on the wallpaper. */
  onHome: boolean;
  pressNav(button: NavButton): void;
  /** The field the soft keyboard types into, when it shows. */
  keyboardFor: TextInput | null;
  shade: { close(): void; notifications: ShadeNotifications } | null;
  /** The heads-up notification over the app, with its poster's name and what a tap does. */
  headsUp: { notification: PostedNotification; appName: string; open(): void } | null;
  dialog: { appLabel: string; group: PermissionGroup; answer(a: PermissionAnswer): void } | null;
  awake: boolean;
  /** The lock screen shows, with what dismisses it. */
  keyguard: { unlock(): void } | null;
}

/**
 * The windows of the display under one root, and the active one (`getRootInActiveWindow`: what
 * `uiautomator dump` reads): the permission dialog, else the shade, else the lock screen, else the base window. The status bar, the
 * navigation bar and the keyboard are never active.
 */
export function windowStack(s: WindowStackState): { root: AndroidView; active: AndroidView } {
  const { env } = s;
  const windows: AndroidView[] = [s.base];
  let active = s.base;
  if (s.keyguard) {
    active = keyguardWindow(env, s.keyguard.unlock);
    windows.push(active);
  }
  windows.push(statusBar(env, s.onHome || s.keyguard ? '#ffffff' : env.theme.statusBarOnScreen));
  if (!s.keyguard) windows.push(navigationBar(env, s.pressNav));
  if (s.keyboardFor) {
    const kb = keyboardWindow({ ...env, height: env.height - env.bottom, bottom: 0 }, s.keyboardFor, 'enter');
    windows.push({ ...kb, pkg: IME_PACKAGE });
  }
  if (s.shade) {
    active = notificationShade(env, quickSettingsTiles(env, (apply) => apply()), s.shade.close, s.shade.notifications);
    windows.push(active);
  } else if (s.headsUp && !s.keyguard) {
    windows.push(headsUpWindow(env, s.headsUp.notification, s.headsUp.appName, s.headsUp.open));
  }
  if (s.dialog) {
    active = permissionDialog(env, s.dialog.appLabel, s.dialog.group, s.dialog.answer);
    windows.push(active);
  }
  if (!s.awake) windows.push(screenOff(env));
  return { root: { uid: 'display/0', type: 'Application', rect: env.screen, children: windows }, active };
}

import type { PermissionAnswer } from '../ui/permission-dialog';

/** How a runtime permission stands for an app. */
export type Grant = 'granted' | 'one_time' | 'denied' | 'denied_forever';

/** The permission groups the dialog asks for (one dialog per group, as Android shows them). */
export type PermissionGroup = 'location' | 'location_background' | 'camera' | 'microphone' | 'contacts' | 'calendar' | 'photos' | 'notifications' | 'motion';

/** Android's runtime ("dangerous") permissions this phone knows, by group (AOSP PermissionController's table). */
export const RUNTIME_PERMISSIONS: Readonly<Record<string, PermissionGroup>> = {
  'android.permission.ACCESS_FINE_LOCATION': 'location',
  'android.permission.ACCESS_COARSE_LOCATION': 'location',
  'android.permission.ACCESS_BACKGROUND_LOCATION': 'location_background',
  'android.permission.CAMERA': 'camera',
  'android.permission.RECORD_AUDIO': 'microphone',
  'android.permission.READ_CONTACTS': 'contacts',
  'android.permission.WRITE_CONTACTS': 'contacts',
  'android.permission.GET_ACCOUNTS': 'contacts',
  'android.permission.READ_CALENDAR': 'calendar',
  'android.permission.WRITE_CALENDAR': 'calendar',
  'android.permission.READ_MEDIA_IMAGES': 'photos',
  'android.permission.READ_MEDIA_VIDEO': 'photos',
  'android.permission.READ_EXTERNAL_STORAGE': 'photos',
  'android.permission.POST_NOTIFICATIONS': 'notifications',
  'android.permission.ACTIVITY_RECOGNITION': 'motion',
};

/** Install-time ("normal") permissions: granted at install, `pm grant` refuses them. */
export const NORMAL_PERMISSIONS: ReadonlySet<string> = new Set([
  'android.permission.INTERNET',
  'android.permission.ACCESS_NETWORK_STATE',
  'android.permission.ACCESS_WIFI_STATE',
  'android.permission.VIBRATE',
  'android.permission.WAKE_LOCK',
  'android.permission.FOREGROUND_SERVICE',
  'android.permission.RECEIVE_BOOT_COMPLETED',
]);

export function permissionGroup(permission: string): PermissionGroup | undefined {
  return Object.prototype.hasOwnProperty.call(RUNTIME_PERMISSIONS, permission) ? RUNTIME_PERMISSIONS[permission] : undefined;
}

/** The flags `pm set-permission-flags` / `clear-permission-flags` name, as the phone keeps them. */
export type PermissionFlag = 'user-set' | 'user-fixed';

interface GroupState {
  granted: boolean;
  oneTime: boolean;
  userSet: boolean;
  userFixed: boolean;
  /** The last answer in the dialog was a denial: the next one is final. */
  deniedLast: boolean;
}

export interface PermissionRequest {
  pkg: string;
  group: PermissionGroup;
  onResult(granted: boolean): void;
}

/**
 * Runtime permissions as Android 11+ keeps them, per app and permission group: a grant "while using the app",
 * a one-time grant that ends with the process, a denial after which the app may ask once more (USER_SET), and a
 * final denial (USER_FIXED). `pm grant`/`revoke` change the grant and leave the flags, as on Android. One
 * request waits at a time; its dialog shows while its app is in front.
 */
export class RuntimePermissions {
  private readonly states = new Map<string, GroupState>();
  private pending: PermissionRequest | null = null;

  constructor(private readonly log: (message: string) => void) {}

  private state(pkg: string, group: PermissionGroup): GroupState {
    const key = `${pkg} ${group}`;
    let s = this.states.get(key);
    if (!s) {
      s = { granted: false, oneTime: false, userSet: false, userFixed: false, deniedLast: false };
      this.states.set(key, s);
    }
    return s;
  }

  /** Answers at once when the grant is known; else the dialog will ask. */
  request(req: PermissionRequest): void {
    const s = this.state(req.pkg, req.group);
    if (s.granted) req.onResult(true);
    else if (s.userFixed) req.onResult(false);
    else this.pending = req;
  }

  /** The request whose dialog shows over `foreground`, if any. */
  shownOver(foreground: string | null): PermissionRequest | null {
    return this.pending && this.pending.pkg === foreground ? this.pending : null;
  }

  answer(answer: PermissionAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const s = this.state(p.pkg, p.group);
    if (answer === 'deny') {
      if (s.deniedLast) s.userFixed = true;
      s.granted = false;
      s.oneTime = false;
    } else {
      s.granted = true;
      s.oneTime = answer === 'one_time';
    }
    s.deniedLast = answer === 'deny';
    s.userSet = true;
    this.log(`${p.group} for ${p.pkg}: ${this.grantOf(p.pkg, p.group)}`);
    p.onResult(answer !== 'deny');
  }

  /** `pm grant` / `pm revoke`: a waiting request of that group is answered the same way. */
  set(pkg: string, group: PermissionGroup, granted: boolean): void {
    const s = this.state(pkg, group);
    s.granted = granted;
    s.oneTime = false;
    if (this.pending?.pkg === pkg && this.pending.group === group) {
      const p = this.pending;
      this.pending = null;
      p.onResult(granted);
    }
  }

  /** `pm set-permission-flags` (on) / `clear-permission-flags` (off). */
  setFlags(pkg: string, group: PermissionGroup, flags: readonly PermissionFlag[], on: boolean): void {
    const s = this.state(pkg, group);
    if (flags.includes('user-set')) s.userSet = on;
    if (flags.includes('user-fixed')) s.userFixed = on;
    if (!on) s.deniedLast = false;
  }

  /** The app's process ended: a one-time grant ends with it, and so does its waiting request. */
  processEnded(pkg: string): void {
    for (const [key, s] of this.states) {
      if (key.startsWith(`${pkg} `) && s.oneTime) {
        s.granted = false;
        s.oneTime = false;
      }
    }
    if (this.pending?.pkg === pkg) this.pending = null;
  }

  /** `pm clear` and uninstalling reset the app's permissions to never asked. */
  forget(pkg: string): void {
    if (this.pending?.pkg === pkg) this.pending = null;
    for (const key of [...this.states.keys()]) if (key.startsWith(`${pkg} `)) this.states.delete(key);
  }

  /** `granted` (while in use), `one_time`, `denied`, `denied_forever`, or undefined when never asked. */
  grantOf(pkg: string, group: PermissionGroup): Grant | undefined {
    const s = this.states.get(`${pkg} ${group}`);
    if (!s) return undefined;
    if (s.granted) return s.oneTime ? 'one_time' : 'granted';
    if (s.userFixed) return 'denied_forever';
    if (s.userSet) return 'denied';
    return undefined;
  }

  /** The flags `dumpsys package` prints: USER_SET, USER_FIXED, ONE_TIME. */
  flagsOf(pkg: string, group: PermissionGroup): { granted: boolean; flags: string[] } {
    const s = this.states.get(`${pkg} ${group}`);
    if (!s) return { granted: false, flags: [] };
    return { granted: s.granted, flags: [...(s.userSet ? ['USER_SET'] : []), ...(s.userFixed ? ['USER_FIXED'] : []), ...(s.oneTime ? ['ONE_TIME'] : [])] };
  }
}

import type { PermissionAnswer } from '../ui/permission-dialog';

/** How a runtime permission stands for an app. */
export type Grant = 'granted' | 'one_time' | 'denied' | 'denied_forever';

export interface PermissionRequest {
  pkg: string;
  permission: string;
  onResult(granted: boolean): void;
}

/**
 * Runtime permissions as Android 11+ keeps them: a grant "while using the app", a one-time grant that ends with
 * the process, a denial after which the app may ask once more, and a final denial. One request waits at a time;
 * its dialog shows while its app is in front.
 */
export class RuntimePermissions {
  private readonly grants = new Map<string, Grant>();
  private pending: PermissionRequest | null = null;

  constructor(private readonly log: (message: string) => void) {}

  /** Answers at once when the grant is known; else the dialog will ask. */
  request(req: PermissionRequest): void {
    const grant = this.grants.get(req.pkg);
    if (grant === 'granted' || grant === 'one_time') req.onResult(true);
    else if (grant === 'denied_forever') req.onResult(false);
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
    const before = this.grants.get(p.pkg);
    const grant: Grant = answer === 'foreground' ? 'granted' : answer === 'one_time' ? 'one_time' : before === 'denied' ? 'denied_forever' : 'denied';
    this.grants.set(p.pkg, grant);
    this.log(`${p.permission} for ${p.pkg}: ${grant}`);
    p.onResult(answer !== 'deny');
  }

  /** `pm grant` / `pm revoke`: a waiting request of the app is answered the same way. */
  set(pkg: string, granted: boolean): void {
    if (this.pending?.pkg === pkg) this.answer(granted ? 'foreground' : 'deny');
    this.grants.set(pkg, granted ? 'granted' : 'denied_forever');
  }

  /** The app's process ended: a one-time grant ends with it, and so does its waiting request. */
  processEnded(pkg: string): void {
    if (this.grants.get(pkg) === 'one_time') this.grants.delete(pkg);
    if (this.pending?.pkg === pkg) this.pending = null;
  }

  /** `pm clear` resets the app's permissions to never asked. */
  forget(pkg: string): void {
    this.processEnded(pkg);
    this.grants.delete(pkg);
  }

  grantOf(pkg: string): Grant | undefined {
    return this.grants.get(pkg);
  }
}

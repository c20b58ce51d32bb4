import { PhoneError, type PhoneProfile } from '../model';

export type Orientation = 'PORTRAIT' | 'LANDSCAPE';

/**
 * Lock and orientation. The orientation the interface shows depends on what is in front: an app follows how the
 * phone is held; the lock screen stays portrait, and so does the home screen except on the Plus/Max models
 * (`homeScreenTurns`).
 */
export class Posture {
  locked = false;
  /** How the phone is held (set_orientation). */
  held: Orientation = 'PORTRAIT';

  constructor(private readonly profile: PhoneProfile) {}

  staysPortrait(onHomeScreen: boolean): boolean {
    return this.locked || (onHomeScreen && !this.profile.homeScreenTurns);
  }

  interfaceOrientation(onHomeScreen: boolean): Orientation {
    return this.staysPortrait(onHomeScreen) ? 'PORTRAIT' : this.held;
  }

  /** Checks a turn before it happens: refused where the screen in front stays portrait. */
  checkTurn(orientation: Orientation, onHomeScreen: boolean): void {
    if (orientation !== 'PORTRAIT' && orientation !== 'LANDSCAPE') {
      throw new PhoneError('invalid_argument', `orientation must be PORTRAIT or LANDSCAPE, not "${String(orientation)}"`);
    }
    if (orientation === 'LANDSCAPE' && this.staysPortrait(onHomeScreen)) {
      throw new PhoneError('rotation_refused', `the ${this.locked ? 'lock' : 'home'} screen stays portrait`);
    }
  }

  /** Screen size in points for the orientation shown. */
  screenSize(onHomeScreen: boolean): { width: number; height: number } {
    const { width, height } = this.profile;
    return this.interfaceOrientation(onHomeScreen) === 'PORTRAIT' ? { width, height } : { width: height, height: width };
  }
}

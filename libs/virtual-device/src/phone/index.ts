import type { Phone } from './model';
import { VirtualPhone, type CreatePhoneOptions } from './virtual-phone';

export * from './model';
export { PROFILES, DEFAULT_PROFILE_ID } from './profiles';
export { VirtualPhone, DEFAULT_DEVICE_NAME, SPRINGBOARD_PID, type CreatePhoneOptions } from './virtual-phone';
export { SPRINGBOARD_BUNDLE_ID, SPRINGBOARD_NAME } from './apps/springboard';
export { SETTINGS_BUNDLE_ID, SETTINGS_ROW_TITLES, GENERAL_ROW_TITLES } from './apps/settings';

/** A new virtual phone on its home screen, unlocked, portrait. */
export function createPhone(options?: CreatePhoneOptions): Phone {
  return new VirtualPhone(options);
}

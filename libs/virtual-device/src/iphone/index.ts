import type { Phone } from './model';
import { VirtualPhone, type CreatePhoneOptions } from './virtual-phone';

export * from './model';
export { PROFILES, DEFAULT_PROFILE_ID } from './profiles';
export { VirtualPhone, DEFAULT_DEVICE_NAME, SPRINGBOARD_PID, type CreatePhoneOptions } from './virtual-phone';
export { SPRINGBOARD_BUNDLE_ID, SPRINGBOARD_NAME } from './apps/springboard';
export { HOME_PAGES, DOCK } from './apps/catalog';
export { SETTINGS_BUNDLE_ID, SETTINGS_ROW_TITLES, GENERAL_ROW_TITLES } from './apps/settings';
export { NOTES_BUNDLE_ID, NOTE_IDENTIFIER, NOTE_PLACEHOLDER } from './apps/notes';
export { SAFARI_BUNDLE_ID } from './apps/safari';
export { REMINDERS_BUNDLE_ID, REMINDER_TITLES } from './apps/reminders';
export { MESSAGES_BUNDLE_ID, MESSAGES_CONTACT, MESSAGE_FIELD_IDENTIFIER } from './apps/messages';
export { HOME_URL } from './apps/web-pages';
export { PHOTOS_BUNDLE_ID, PHOTOS_GLYPH_BUTTONS } from './apps/photos';
export { MAPS_BUNDLE_ID, MAPS_ALERT_TITLE, MAPS_ALERT_MESSAGE, MAPS_ALERT_BUTTONS } from './apps/maps';
export { LOCK_TIME, LOCK_DATE } from './apps/lock-screen';

/** A new virtual phone on its home screen, unlocked, portrait. */
export function createPhone(options?: CreatePhoneOptions): Phone {
  return new VirtualPhone(options);
}

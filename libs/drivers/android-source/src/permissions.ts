import type { Permission } from '@apex/port';

/**
 * Apex's neutral permissions → Android's runtime permissions (an app declares some of them). Android has no
 * reminders permission: it keeps reminders in the calendar.
 */
export const ANDROID_PERMISSIONS: Record<Exclude<Permission, 'reminders'>, readonly string[]> = {
  location: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.ACCESS_COARSE_LOCATION'],
  locationAlways: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.ACCESS_COARSE_LOCATION', 'android.permission.ACCESS_BACKGROUND_LOCATION'],
  camera: ['android.permission.CAMERA'],
  microphone: ['android.permission.RECORD_AUDIO'],
  photos: ['android.permission.READ_MEDIA_IMAGES', 'android.permission.READ_MEDIA_VIDEO', 'android.permission.READ_EXTERNAL_STORAGE'],
  contacts: ['android.permission.READ_CONTACTS', 'android.permission.WRITE_CONTACTS'],
  calendar: ['android.permission.READ_CALENDAR', 'android.permission.WRITE_CALENDAR'],
  notifications: ['android.permission.POST_NOTIFICATIONS'],
  motion: ['android.permission.ACTIVITY_RECOGNITION'],
};

/** Taking back "always" takes back the background grant only; granting it needs the foreground grant too. */
export function androidPermissionNames(permission: Exclude<Permission, 'reminders'>, granting: boolean): readonly string[] {
  return permission === 'locationAlways' && !granting ? ['android.permission.ACCESS_BACKGROUND_LOCATION'] : ANDROID_PERMISSIONS[permission];
}

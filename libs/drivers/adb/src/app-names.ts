/**
 * The names on the launcher icons of Android's and Google's own apps, by package. Android keeps an app's
 * label in its resources, which no shell command prints (`cmd package query-activities` shows only a plain
 * `nonLocalizedLabel`, rarely set), so this table names the common ones, as APPLE_SYSTEM_APPS does on iOS.
 */
const ANDROID_SYSTEM_APPS: Record<string, string> = {
  'com.android.settings': 'Settings',
  'com.android.chrome': 'Chrome',
  'com.google.android.apps.messaging': 'Messages',
  'com.android.messaging': 'Messages',
  'com.google.android.deskclock': 'Clock',
  'com.android.deskclock': 'Clock',
  'com.google.android.contacts': 'Contacts',
  'com.android.contacts': 'Contacts',
  'com.google.android.calculator': 'Calculator',
  'com.android.calculator2': 'Calculator',
  'com.google.android.apps.photos': 'Photos',
  'com.google.android.apps.maps': 'Maps',
  'com.google.android.dialer': 'Phone',
  'com.android.dialer': 'Phone',
  'com.google.android.GoogleCamera': 'Camera',
  'com.android.camera2': 'Camera',
  'com.google.android.gm': 'Gmail',
  'com.google.android.youtube': 'YouTube',
  'com.android.vending': 'Play Store',
  'com.google.android.calendar': 'Calendar',
  'com.android.calendar': 'Calendar',
  'com.google.android.apps.nbu.files': 'Files',
  'com.android.documentsui': 'Files',
  'com.google.android.apps.docs': 'Drive',
  'com.google.android.keep': 'Keep Notes',
  'com.google.android.googlequicksearchbox': 'Google',
};

export function androidAppName(appId: string): string | undefined {
  return ANDROID_SYSTEM_APPS[appId];
}

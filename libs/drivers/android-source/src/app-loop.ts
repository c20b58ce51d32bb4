import { basename } from 'node:path';
import { ApexError, echoName } from '@apex/errors';
import type { LaunchOptions, MediaFile } from '@apex/port';

/*
 * The developer's loop in Android's terms, one place for every Android driver.
 *
 * A launch with options: the launcher activity started afresh with the arguments as the intent's string extras.
 * - `arguments` are read as KEY VALUE pairs, each one string extra (`am start --es KEY VALUE`; the app reads it
 *   with `getIntent().getStringExtra(KEY)`). One leading `-` of a key is dropped, so the iOS-style `-Key value`
 *   (what NSUserDefaults reads from the arguments) reaches an Android app as the extra `Key`.
 * - `environment`: refused. Android apps are forked from the zygote, which every app shares; nothing passes a
 *   per-launch environment to the app's process.
 * - `locale`: refused. Android's per-app language (Android 13+) is a lasting setting of the app, not a property
 *   of one launch; setting it would outlive the launch the caller asked for.
 */

/** An extra's key: what an app can name in code (letters, digits, `_`, `.`), so it survives every shell. */
const EXTRA_KEY = /^[A-Za-z_][A-Za-z0-9_.]*$/;

function refuse(deviceId: string, what: string, reason: string, hint: string): ApexError {
  return new ApexError('unsupported_operation', `Device ${deviceId} cannot launch an app with ${what}: ${reason}`, { hint });
}

/** The launch options as string extras, in order; refuses what Android cannot pass before anything is sent. */
export function launchExtras(deviceId: string, options: LaunchOptions): Array<[string, string]> {
  if (options.environment && Object.keys(options.environment).length > 0) {
    throw refuse(deviceId, 'environment variables', 'Android starts every app from one shared system process, which takes no environment per launch.', 'Pass the values as launch arguments (KEY VALUE pairs): the app receives them as string extras.');
  }
  if (options.locale !== undefined) {
    throw refuse(deviceId, 'a locale', 'Android sets an app’s language as a lasting setting of the app, not for one launch.', 'Change the phone’s or the app’s language in Settings, or pass it as a launch argument the app reads.');
  }
  const args = options.arguments ?? [];
  if (args.length % 2 !== 0) {
    throw new ApexError('invalid_argument', `Device ${deviceId} is an Android phone: its launch arguments are KEY VALUE pairs, and ${args.length} arguments make no pairs.`, {
      hint: 'Give the arguments as pairs, e.g. ["-mode", "demo"]; the app reads each value by its key.',
    });
  }
  const extras: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i].replace(/^-/, '');
    if (!EXTRA_KEY.test(key)) {
      throw new ApexError('invalid_argument', `Launch argument "${echoName(args[i])}" cannot be a key on Android: keys are letters, digits, "_" and ".", with one optional leading "-".`, {
        hint: 'Give the arguments as KEY VALUE pairs, e.g. ["-mode", "demo"].',
      });
    }
    extras.push([key, args[i + 1]]);
  }
  return extras;
}

/** Where a photo (Pictures) or video (Movies) goes on shared storage for the media scanner to add it. */
export function galleryPath(file: MediaFile): string {
  const name = basename(file.path).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(-120) || 'media';
  return `/sdcard/${file.kind === 'video' ? 'Movies' : 'Pictures'}/${name}`;
}

/** The media scanner's broadcast that adds a file on shared storage to the gallery. */
export const MEDIA_SCAN_ACTION = 'android.intent.action.MEDIA_SCANNER_SCAN_FILE';

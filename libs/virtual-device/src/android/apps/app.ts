import type { ScreenEnv } from '../../engine/screen';
import type { TextInput } from '../../engine/ui/text-input';
import type { AndroidView } from '../android-view';
import type { AndroidProfile } from '../profiles';
import type { AndroidSystem } from '../system/android-system';
import type { GeoFix } from '../device/location';
import type { MediaItem } from '../device/media-store';

/** What an app asks of the phone while it runs. */
export interface AppServices {
  /** Shows the runtime-permission dialog for `pkg` unless the answer is already known; `onResult(granted)`. */
  requestPermission(pkg: string, permission: string, onResult: (granted: boolean) => void): void;
  /** Starts another app (as an intent would). */
  launch(pkg: string): void;
  /** Opens a URL in the browser. */
  openUrl(url: string): void;
  /** Writes a logcat line (tag, message) for this app. */
  log(tag: string, message: string): void;
  /** The position an app with the location permission gets; undefined while location is off. */
  location(): GeoFix | undefined;
  /** The photos and videos in the media store, newest first. */
  media(): readonly MediaItem[];
  /** The app's main thread throws and nothing catches it: the process dies (see AppProcesses.crash). */
  crash(pkg: string, exception: JavaException): void;
}

/** An uncaught exception as the runtime prints it. */
export interface JavaException {
  /** e.g. java.lang.RuntimeException */
  className: string;
  message: string;
  /** Innermost first, without the leading "at ". */
  frames: readonly string[];
}

/** Everything an Android screen needs to lay itself out. Geometry in dp. */
export interface AndroidEnv extends ScreenEnv {
  profile: AndroidProfile;
  system: AndroidSystem;
  services: AppServices;
}

/** A running app: its state survives going to the background; `reset()` when its process is stopped. */
export interface AndroidAppInstance {
  /** The app's window: a full-screen root (the decor view) whose content sits between the system bars. */
  window(env: AndroidEnv): AndroidView;
  focusedInput(): TextInput | null;
  /** Back inside the app (up one screen, close a panel); false = nothing left, the activity finishes. */
  back(): boolean;
  /** The activity in front, as a class name (`com.android.settings.SubSettings`). */
  activity(): string;
  /** Comes to the front (first launch included). */
  resumed?(services: AppServices): void;
  /** An ACTION_VIEW intent with this URL. */
  openUrl?(url: string): void;
  reset(): void;
}

export interface AndroidAppIcon {
  background: string;
  foreground: string;
  letter: string;
}

export interface AndroidAppDefinition {
  pkg: string;
  label: string;
  /** The launcher activity's class name; '' for an installed app without one (no icon, nothing to launch). */
  launcherActivity: string;
  icon: AndroidAppIcon;
  versionName: string;
  /** Installed by the user (listed by `pm list packages -3`); else a system app. */
  thirdParty?: boolean;
  create(system: AndroidSystem): AndroidAppInstance;
}

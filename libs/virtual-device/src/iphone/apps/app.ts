import type { ScreenEnv } from '../../engine/screen';
import type { PhoneProfile } from '../model';
import type { GlyphName } from '../../engine/render/glyphs';
import type { View } from '../../engine/view';
import type { TextInput } from '../../engine/ui/text-input';
import type { ObjcException } from '../device/diagnostics';

/** Device-wide settings that several apps and the status bar read (Settings writes them). */
export interface SystemState {
  deviceName: string;
  wifi: boolean;
  bluetooth: boolean;
  airplaneMode: boolean;
  /** Photos' access to the photo library: `undetermined` asks on its next launch. */
  photoLibraryAccess: PhotoLibraryAccess;
  /** A downloaded iOS update waiting to be installed ("iOS 17.6"): Settings shows it in a row at the top. */
  softwareUpdate: string | null;
  /** What each app was granted or denied (bundle id → permission → answer); absent = not asked yet. */
  privacy: Map<string, Map<PrivacyPermission, 'granted' | 'denied'>>;
  /** The simulated GPS position, or null when none is set. */
  location: GeoPosition | null;
  /** A face (or finger) is enrolled: Face ID prompts can be answered. */
  biometricEnrolled: boolean;
}

/** The permissions the phone keeps per app (the names Apex's port uses). */
export const PRIVACY_PERMISSIONS = ['location', 'locationAlways', 'camera', 'microphone', 'photos', 'contacts', 'calendar', 'reminders', 'notifications', 'motion'] as const;
export type PrivacyPermission = (typeof PRIVACY_PERMISSIONS)[number];

export interface GeoPosition {
  latitude: number;
  longitude: number;
  altitude?: number;
}

/** What an app was started with (WDA's `/wda/apps/launch` arguments and environment). */
export interface LaunchInfo {
  arguments: string[];
  environment: Record<string, string>;
}

/** A delivered notification. */
export interface PhoneNotification {
  bundleId: string;
  title: string;
  body: string;
}

export type PhotoLibraryAccess = 'undetermined' | 'full' | 'limited' | 'denied';

/** A system alert owned by an app (e.g. a permission prompt). */
export interface SystemAlert {
  title: string;
  message: string;
  buttons: string[];
  /** The button accept presses without a name, and the one dismiss presses. */
  acceptButton: string;
  dismissButton: string;
  onChoice(button: string): void;
}

/** What the phone offers apps while they run. */
export interface PhoneServices {
  showAlert(owner: string, alert: SystemAlert): void;
  /** Writes one of the app's own lines to the unified log. */
  log(owner: string, message: string): void;
  /** An uncaught exception ends the app: a crash report is written, the app's process ends, home comes back. */
  crash(owner: string, exception: ObjcException): void;
}

/** Everything an app needs to lay itself out for the current screen. */
export interface Env extends ScreenEnv {
  profile: PhoneProfile;
  system: SystemState;
  /** The general pasteboard as text, for edit menus (Copy / Paste). */
  pasteboard: { text(): string; setText(text: string): void };
}

/** A running (or suspended) app: its state lives in the instance and survives backgrounding. */
export interface AppInstance {
  /** The views of the app: each top-level view becomes one Window. */
  windows(env: Env): View[];
  /** The focused text input, if any (typeText goes there). */
  focusedInput(): TextInput | null;
  /** Called whenever the app comes to the foreground (first launch included). */
  activated?(services: PhoneServices): void;
  /** Shows what a URL of one of the app's schemes names (the app is already in the foreground). */
  openUrl?(url: string): void;
  /** The app was terminated: drop transient UI (navigation, focus, scroll), keep saved data. */
  reset(): void;
  /** Its process started (launched while not running), with these arguments and environment. */
  started?(launch: LaunchInfo): void;
  /** The user opened one of its notifications (the app is already in front). */
  notificationOpened?(notification: PhoneNotification): void;
  /** A biometric answer arrived while the app is in front; true when it was waiting for one. */
  biometricAnswered?(matched: boolean): boolean;
  /** A photo or video was added to the library (Photos). */
  mediaAdded?(kind: 'photo' | 'video'): void;
}

export interface AppIcon {
  background: string;
  foreground: string;
  glyph?: GlyphName;
  letter?: string;
}

export interface AppDefinition {
  bundleId: string;
  name: string;
  icon: AppIcon;
  /** Lower-case URL schemes the app opens (`open_url`). */
  urlSchemes?: readonly string[];
  create(system: SystemState): AppInstance;
}

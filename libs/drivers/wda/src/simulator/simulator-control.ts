import type { IosDiagnosticsSource } from '@apex/ios-source';
import type { AppBuild, BiometricAction, MediaFile, Permission, PermissionState, PushNotification } from '@apex/port';

/**
 * What a simulator's host tools do that WebDriverAgent cannot: install and remove builds, reset an app, answer
 * its permissions, simulate biometrics, deliver pushes, add media, and read its log and crash reports (the
 * IosDiagnosticsSource part: `log show --style ndjson` lines, `.ips` files). A `wda` device entry with `"simulator":
 * "<UDID>"` gets the `xcrun simctl` implementation (simctl.ts); the embedded virtual iPhone gets an in-process
 * one from the runtime. Every failure leaves as an ApexError in neutral words.
 */
export interface SimulatorControl extends IosDiagnosticsSource {
  /** Installs (or replaces) a build; `replaced` when an app with its id was installed before. */
  install(build: AppBuild, signal: AbortSignal): Promise<{ replaced: boolean }>;
  /** `app_not_found` when it is not installed, `unsupported_operation` for a system app. */
  uninstall(appId: string, signal: AbortSignal): Promise<void>;
  /** Clears the app's data and permissions; it stays installed. */
  reset(appId: string, signal: AbortSignal): Promise<void>;
  setPermission(appId: string, permission: Permission, state: PermissionState, signal: AbortSignal): Promise<void>;
  biometric(action: BiometricAction, signal: AbortSignal): Promise<void>;
  push(notification: PushNotification, signal: AbortSignal): Promise<void>;
  addMedia(file: MediaFile, signal: AbortSignal): Promise<void>;
}

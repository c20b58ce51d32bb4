import type { AnyOperation } from '../define-operation';
import { installAppOperation } from './install-app';
import { uninstallAppOperation } from './uninstall-app';
import { resetAppOperation } from './reset-app';
import { appStateOperation } from './app-state';
import { backgroundAppOperation } from './background-app';
import { setPermissionOperation } from './set-permission';
import { setLocationOperation } from './set-location';
import { biometricOperation } from './biometric';
import { pushNotificationOperation } from './push-notification';
import { addMediaOperation } from './add-media';
import { describeScreenOperation } from './describe-screen';
import { deviceStatusOperation } from './device-status';
import { doubleTapOperation } from './double-tap';
import { findIconOperation } from './find-icon';
import { findTextOperation } from './find-text';
import { getClipboardOperation } from './get-clipboard';
import { getCrashOperation } from './get-crash';
import { getLogsOperation } from './get-logs';
import { listCrashesOperation } from './list-crashes';
import { getUiTreeOperation } from './get-ui-tree';
import { handleAlertOperation } from './handle-alert';
import { hideKeyboardOperation } from './hide-keyboard';
import { inputTextOperation } from './input-text';
import { launchAppOperation } from './launch-app';
import { listAppsOperation } from './list-apps';
import { listDevicesOperation } from './list-devices';
import { longPressOperation } from './long-press';
import { openUrlOperation } from './open-url';
import { pinchOperation } from './pinch';
import { pressButtonOperation } from './press-button';
import { setAppearanceOperation } from './set-appearance';
import { setClipboardOperation } from './set-clipboard';
import { setLockOperation } from './set-lock';
import { setOrientationOperation } from './set-orientation';
import { swipeOperation } from './swipe';
import { takeScreenshotOperation } from './take-screenshot';
import { tapOperation } from './tap';
import { terminateAppOperation } from './terminate-app';
import { waitForOperation } from './wait-for';
import { waitForDeviceOperation } from './wait-for-device';

/** The registry of device operations, in the order clients list them. */
export const DEVICE_OPERATIONS: readonly AnyOperation[] = [
  listDevicesOperation,
  deviceStatusOperation,
  waitForDeviceOperation,
  describeScreenOperation,
  takeScreenshotOperation,
  findTextOperation,
  findIconOperation,
  getUiTreeOperation,
  waitForOperation,
  tapOperation,
  doubleTapOperation,
  longPressOperation,
  swipeOperation,
  pinchOperation,
  inputTextOperation,
  hideKeyboardOperation,
  pressButtonOperation,
  handleAlertOperation,
  launchAppOperation,
  terminateAppOperation,
  listAppsOperation,
  openUrlOperation,
  setOrientationOperation,
  setAppearanceOperation,
  setLockOperation,
  getClipboardOperation,
  setClipboardOperation,
  // the developer's loop (issue 33)
  installAppOperation,
  uninstallAppOperation,
  resetAppOperation,
  appStateOperation,
  backgroundAppOperation,
  setPermissionOperation,
  setLocationOperation,
  biometricOperation,
  pushNotificationOperation,
  addMediaOperation,
  // evidence (issue 34)
  getLogsOperation,
  listCrashesOperation,
  getCrashOperation,
];

export {
  installAppOperation,
  uninstallAppOperation,
  resetAppOperation,
  appStateOperation,
  backgroundAppOperation,
  setPermissionOperation,
  setLocationOperation,
  biometricOperation,
  pushNotificationOperation,
  addMediaOperation,
  describeScreenOperation,
  deviceStatusOperation,
  doubleTapOperation,
  findIconOperation,
  findTextOperation,
  getClipboardOperation,
  getCrashOperation,
  // evidence (issue 34)
  getLogsOperation,
  getUiTreeOperation,
  handleAlertOperation,
  hideKeyboardOperation,
  inputTextOperation,
  launchAppOperation,
  listAppsOperation,
  listCrashesOperation,
  listDevicesOperation,
  longPressOperation,
  openUrlOperation,
  pinchOperation,
  pressButtonOperation,
  setAppearanceOperation,
  setClipboardOperation,
  setLockOperation,
  setOrientationOperation,
  swipeOperation,
  takeScreenshotOperation,
  tapOperation,
  terminateAppOperation,
  waitForOperation,
  waitForDeviceOperation,
};

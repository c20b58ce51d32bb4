import type { AnyOperation } from '../define-operation';
import { describeScreenOperation } from './describe-screen';
import { deviceStatusOperation } from './device-status';
import { doubleTapOperation as doubleTapAction } from './double-tap';
import { findIconOperation } from './find-icon';
import { findTextOperation } from './find-text';
import { getClipboardOperation } from './get-clipboard';
import { getUiTreeOperation } from './get-ui-tree';
import { handleAlertOperation as handleAlertAction } from './handle-alert';
import { hideKeyboardOperation as hideKeyboardAction } from './hide-keyboard';
import { inputTextOperation as inputTextAction } from './input-text';
import { launchAppOperation as launchAppAction } from './launch-app';
import { listAppsOperation } from './list-apps';
import { listDevicesOperation } from './list-devices';
import { longPressOperation as longPressAction } from './long-press';
import { openUrlOperation as openUrlAction } from './open-url';
import { pinchOperation as pinchAction } from './pinch';
import { pressButtonOperation as pressButtonAction } from './press-button';
import { setAppearanceOperation as setAppearanceAction } from './set-appearance';
import { setClipboardOperation } from './set-clipboard';
import { setLockOperation as setLockAction } from './set-lock';
import { setOrientationOperation as setOrientationAction } from './set-orientation';
import { swipeOperation as swipeAction } from './swipe';
import { takeScreenshotOperation } from './take-screenshot';
import { tapOperation as tapAction } from './tap';
import { terminateAppOperation as terminateAppAction } from './terminate-app';
import { waitForOperation } from './wait-for';

import { observing } from '../observe';

/** Actions take `observe` and report the screen after them. */
const doubleTapOperation = observing(doubleTapAction);
const handleAlertOperation = observing(handleAlertAction);
const hideKeyboardOperation = observing(hideKeyboardAction);
const inputTextOperation = observing(inputTextAction);
const launchAppOperation = observing(launchAppAction);
const longPressOperation = observing(longPressAction);
const openUrlOperation = observing(openUrlAction);
const pinchOperation = observing(pinchAction);
const pressButtonOperation = observing(pressButtonAction);
const setAppearanceOperation = observing(setAppearanceAction);
const setLockOperation = observing(setLockAction);
const setOrientationOperation = observing(setOrientationAction);
const swipeOperation = observing(swipeAction);
const tapOperation = observing(tapAction);
const terminateAppOperation = observing(terminateAppAction);

/** The registry of device operations, in the order clients list them. */
export const DEVICE_OPERATIONS: readonly AnyOperation[] = [
  listDevicesOperation,
  deviceStatusOperation,
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
];

export {
  describeScreenOperation,
  deviceStatusOperation,
  doubleTapOperation,
  findIconOperation,
  findTextOperation,
  getClipboardOperation,
  getUiTreeOperation,
  handleAlertOperation,
  hideKeyboardOperation,
  inputTextOperation,
  launchAppOperation,
  listAppsOperation,
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
};

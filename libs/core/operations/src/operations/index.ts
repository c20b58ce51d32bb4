import type { AnyOperation } from '../define-operation';
import { describeScreenOperation } from './describe-screen';
import { deviceStatusOperation } from './device-status';
import { findIconOperation } from './find-icon';
import { findTextOperation } from './find-text';
import { getUiTreeOperation } from './get-ui-tree';
import { inputTextOperation } from './input-text';
import { launchAppOperation } from './launch-app';
import { listAppsOperation } from './list-apps';
import { listDevicesOperation } from './list-devices';
import { pressButtonOperation } from './press-button';
import { swipeOperation } from './swipe';
import { takeScreenshotOperation } from './take-screenshot';
import { tapOperation } from './tap';
import { terminateAppOperation } from './terminate-app';

/** The registry of device operations, in the order clients list them. */
export const DEVICE_OPERATIONS: readonly AnyOperation[] = [
  listDevicesOperation,
  deviceStatusOperation,
  describeScreenOperation,
  takeScreenshotOperation,
  findTextOperation,
  findIconOperation,
  getUiTreeOperation,
  tapOperation,
  swipeOperation,
  inputTextOperation,
  pressButtonOperation,
  launchAppOperation,
  terminateAppOperation,
  listAppsOperation,
];

export {
  describeScreenOperation,
  deviceStatusOperation,
  findIconOperation,
  findTextOperation,
  getUiTreeOperation,
  inputTextOperation,
  launchAppOperation,
  listAppsOperation,
  listDevicesOperation,
  pressButtonOperation,
  swipeOperation,
  takeScreenshotOperation,
  tapOperation,
  terminateAppOperation,
};

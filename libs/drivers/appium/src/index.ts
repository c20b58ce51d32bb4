export { AppiumDriver, createAppiumDriver, type AppiumDriverOptions } from './appium-driver';
export { platformOf } from './capabilities';
export { normalizeAndroidSource } from '@apex/android-source';
export { parseGridStatus, readGridStatus, type GridSlot } from './grid/grid-status';

import { getClipboard, setClipboard } from '../common';
import type { AppiumContext } from '../context';
import type { PlatformCommands } from '../platform';
import * as apps from './apps';
import * as appLoop from './app-loop';
import * as controls from './controls';
import * as device from './device';
import * as gestures from './gestures';
import * as keyboard from './keyboard';
import * as screen from './screen';

/** iOS through the XCUITest driver, which forwards most commands to the WebDriverAgent on the phone. */
export function iosCommands(ctx: AppiumContext): PlatformCommands {
  return {
    status: (signal) => device.status(ctx, signal),
    foregroundApp: (signal) => apps.foregroundApp(ctx, signal),
    screen: (signal) => screen.screenGeometry(ctx, signal),
    screenshot: (signal) => screen.screenshot(ctx, signal),
    tap: (point, signal) => gestures.tap(ctx, point, signal),
    swipe: (gesture, signal) => gestures.swipe(ctx, gesture, signal),
    typeText: (request, signal) => keyboard.typeText(ctx, request, signal),
    pressButton: (button, signal) => device.pressButton(ctx, button, signal),
    launchApp: (appId, signal) => apps.launchApp(ctx, appId, signal),
    terminateApp: (appId, signal) => apps.terminateApp(ctx, appId, signal),
    // Running apps only: `mobile: listApps` needs a real device over usbmuxd (InstallationProxy), see apps.ts.
    listApps: async (signal) => ({ apps: await apps.listRunningApps(ctx, signal), complete: false }),
    longPress: (gesture, signal) => controls.longPress(ctx, gesture, signal),
    doubleTap: (point, signal) => controls.doubleTap(ctx, point, signal),
    pinch: (gesture, signal) => controls.pinch(ctx, gesture, signal),
    openUrl: (url, signal) => controls.openUrl(ctx, url, signal),
    setOrientation: (orientation, signal) => controls.setOrientation(ctx, orientation, signal),
    getClipboard: (signal) => getClipboard(ctx, signal),
    setClipboard: (text, signal) => setClipboard(ctx, text, signal),
    setLocked: (locked, signal) => controls.setLocked(ctx, locked, signal),
    hideKeyboard: (signal) => controls.hideKeyboard(ctx, signal),
    alert: (signal) => controls.alert(ctx, signal),
    handleAlert: (action, signal) => controls.handleAlert(ctx, action, signal),
    setAppearance: (appearance, signal) => controls.setAppearance(ctx, appearance, signal),
    appState: (appId, signal) => appLoop.appState(ctx, appId, signal),
    backgroundApp: (seconds, signal) => appLoop.backgroundApp(ctx, seconds, signal),
    setLocation: (location, signal) => appLoop.setLocation(ctx, location, signal),
    launchAppWith: (appId, options, signal) => appLoop.launchAppWith(ctx, appId, options, signal),
    installApp: (build, signal) => appLoop.installApp(ctx, build, signal),
    uninstallApp: (appId, signal) => appLoop.uninstallApp(ctx, appId, signal),
    resetApp: (appId, signal) => appLoop.resetApp(ctx, appId, signal),
    setPermission: (appId, permission, state, signal) => appLoop.setPermission(ctx, appId, permission, state, signal),
    biometric: (action, signal) => appLoop.biometric(ctx, action, signal),
    pushNotification: (notification, signal) => appLoop.pushNotification(ctx, notification, signal),
    addMedia: (file, signal) => appLoop.addMedia(ctx, file, signal),
    uiTree: (signal) => screen.uiTree(ctx, signal),
    ping: (signal) => device.ping(ctx, signal),
  };
}

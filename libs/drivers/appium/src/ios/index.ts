import type { AppiumContext } from '../context';
import type { PlatformCommands } from '../platform';
import * as apps from './apps';
import * as device from './device';
import * as gestures from './gestures';
import * as keyboard from './keyboard';
import * as screen from './screen';

/** iOS through the XCUITest driver, which forwards most commands to the WebDriverAgent on the phone. */
export function iosCommands(ctx: AppiumContext): PlatformCommands {
  return {
    status: (signal) => device.status(ctx, signal),
    screen: (signal) => screen.screenGeometry(ctx, signal),
    screenshot: (signal) => screen.screenshot(ctx, signal),
    tap: (point, signal) => gestures.tap(ctx, point, signal),
    swipe: (gesture, signal) => gestures.swipe(ctx, gesture, signal),
    typeText: (request, signal) => keyboard.typeText(ctx, request, signal),
    pressButton: (button, signal) => device.pressButton(ctx, button, signal),
    launchApp: (appId, signal) => apps.launchApp(ctx, appId, signal),
    terminateApp: (appId, signal) => apps.terminateApp(ctx, appId, signal),
    // Running apps only: `mobile: listApps` reaches for a USB device (see apps.ts).
    listApps: async (signal) => ({ apps: await apps.listRunningApps(ctx, signal), complete: false }),
    uiTree: (signal) => screen.uiTree(ctx, signal),
    ping: (signal) => device.ping(ctx, signal),
  };
}

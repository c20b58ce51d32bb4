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
    status: () => device.status(ctx),
    screenshot: () => screen.screenshot(ctx),
    tap: (point) => gestures.tap(ctx, point),
    swipe: (gesture) => gestures.swipe(ctx, gesture),
    typeText: (request) => keyboard.typeText(ctx, request),
    pressButton: (button) => device.pressButton(ctx, button),
    launchApp: (appId) => apps.launchApp(ctx, appId),
    terminateApp: (appId) => apps.terminateApp(ctx, appId),
    listApps: () => apps.listRunningApps(ctx),
    uiTree: () => screen.uiTree(ctx),
    ping: () => device.ping(ctx),
  };
}

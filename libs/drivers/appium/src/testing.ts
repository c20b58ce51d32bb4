/**
 * Test and benchmark support (`@apex/driver-appium/testing`): a real Appium server with the XCUITest driver
 * in a child process, and the capabilities that point it at an already running on-device agent.
 */
export { startAppiumServer, type AppiumServer } from './testing/appium-server';
export { iosCapabilities } from './testing/capabilities';

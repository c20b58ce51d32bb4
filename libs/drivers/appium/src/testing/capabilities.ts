/**
 * Session capabilities for an iPhone whose on-device agent already runs at `agentUrl` (the virtual iPhone):
 * on Linux the XCUITest driver then needs an explicit udid and platformVersion, and no bundleId/app.
 */
export function iosCapabilities(agentUrl: string, udid = 'virtual-iphone'): Record<string, unknown> {
  return {
    platformName: 'iOS',
    'appium:automationName': 'XCUITest',
    'appium:udid': udid,
    'appium:platformVersion': '17.5',
    'appium:webDriverAgentUrl': agentUrl,
    'appium:skipLogCapture': true,
  };
}

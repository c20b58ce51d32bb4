import { ApexError } from '@apex/errors';
import { checkedCapabilities, platformOf, sessionCapabilities } from './capabilities';

describe('session capabilities', () => {
  it('finds the platform from platformName, case-insensitively', () => {
    expect(platformOf({ platformName: 'iOS' })).toBe('ios');
    expect(platformOf({ platformName: 'ANDROID' })).toBe('android');
    expect(platformOf({ platformName: 'tvOS' })).toBeUndefined();
    expect(platformOf({})).toBeUndefined();
  });

  it('prefixes non-standard names, keeps vendor-prefixed and W3C ones, and names the automation engine', () => {
    expect(sessionCapabilities({ platformName: 'iOS', udid: 'abc', 'appium:platformVersion': '17.5', 'ms:x': 1 }, 'ios')).toEqual({
      alwaysMatch: { platformName: 'iOS', 'appium:udid': 'abc', 'appium:platformVersion': '17.5', 'ms:x': 1, 'appium:automationName': 'XCUITest' },
      firstMatch: [{}],
    });
    expect(sessionCapabilities({ platformName: 'Android', automationName: 'Espresso' }, 'android').alwaysMatch).toEqual({
      platformName: 'Android',
      'appium:automationName': 'Espresso',
    });
    expect(sessionCapabilities({ platformName: 'Android' }, 'android').alwaysMatch['appium:automationName']).toBe('UiAutomator2');
  });

  it('rejects capabilities without a known platform as invalid_argument', () => {
    for (const capabilities of [{ udid: 'x' }, { platformName: 'Symbian' }, ['not', 'an', 'object']]) {
      let error: unknown;
      try {
        checkedCapabilities(capabilities);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ApexError);
      expect((error as ApexError).code).toBe('invalid_argument');
    }
    expect(checkedCapabilities({ platformName: 'iOS' }).platform).toBe('ios');
  });
});

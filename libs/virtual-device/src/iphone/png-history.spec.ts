import { createPhone } from './index';
import { byLabel, element, tapElement } from '../testing';

/** The iPhone's screenshots depend on its screen only, not on what the encoder saw before. */
describe('iPhone screenshots', () => {
  it('gives a phone the same bytes for the same screen whatever the history', () => {
    const a = createPhone();
    a.launchApp('com.apple.Preferences');
    a.renderPng();
    for (let i = 0; i < 3; i++) {
      tapElement(a, element(a, byLabel('Wi-Fi', 'Switch')));
      a.renderPng();
    }
    const b = createPhone();
    b.launchApp('com.apple.Preferences');
    tapElement(b, element(b, byLabel('Wi-Fi', 'Switch')));
    expect(a.renderPng().equals(b.renderPng())).toBe(true);
  });
});

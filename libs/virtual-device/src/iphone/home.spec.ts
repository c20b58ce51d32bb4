import { createPhone, SPRINGBOARD_BUNDLE_ID } from './index';
import { allElements, byLabel, element, findElement, tapElement } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

describe('home screen', () => {
  it('is SpringBoard with labelled app icons and a dock', () => {
    const phone = createPhone();
    const app = phone.snapshot();
    expect(app.type).toBe('Application');
    expect(app.label).toBe('SpringBoard');
    expect(phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);
    expect(app.children[0].type).toBe('Window');
    const icons = allElements(app).filter((e) => e.type === 'Icon');
    const names = icons.map((i) => i.label);
    for (const name of ['Settings', 'Notes', 'Safari', 'Photos', 'Maps', 'Calendar', 'Clock', 'Camera', 'Weather', 'Messages', 'Music', 'Mail']) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
    const dock = element(phone, (e) => e.identifier === 'Dock');
    expect(dock.children.map((c) => c.label)).toEqual(['Phone', 'Safari', 'Messages', 'Music']);
    for (const icon of icons) expect(icon.traits).toContain('Button');
  });

  it('launches an app when its icon is tapped, and goes home again', () => {
    const phone = createPhone();
    tapElement(phone, element(phone, byLabel('Settings', 'Icon')));
    expect(phone.activeApp()).toMatchObject({ bundleId: 'com.apple.Preferences', name: 'Settings' });
    expect(phone.snapshot().label).toBe('Settings');
    expect(phone.appState('com.apple.Preferences')).toBe(4);
    phone.pressButton('HOME');
    expect(phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);
    expect(phone.appState('com.apple.Preferences')).toBe(3);
    tapElement(phone, element(phone, byLabel('Safari', 'Icon')));
    expect(phone.activeApp().bundleId).toBe('com.apple.mobilesafari');
  });

  it('swipes between pages: second-page icons become visible and tappable', () => {
    const phone = createPhone();
    const files = () => element(phone, byLabel('Files', 'Icon'));
    expect(files().visible).toBe(false);
    expect(findElement(phone, byLabel('page 1 of 2'))).toBeDefined();
    phone.drag(330, 400, 60, 400, 0.2);
    expect(files().visible).toBe(true);
    expect(element(phone, byLabel('Settings', 'Icon')).visible).toBe(false);
    expect(findElement(phone, byLabel('page 2 of 2'))).toBeDefined();
    tapElement(phone, files());
    expect(phone.activeApp().name).toBe('Files');
    phone.goHome();
    phone.drag(60, 400, 330, 400, 0.2);
    expect(element(phone, byLabel('Settings', 'Icon')).visible).toBe(true);
  });

  it('home from an app returns to the page it was left on; home on the home screen goes to the first page', () => {
    const phone = createPhone();
    phone.drag(330, 400, 60, 400, 0.2);
    tapElement(phone, element(phone, byLabel('Files', 'Icon')));
    phone.pressButton('home');
    expect(findElement(phone, byLabel('page 2 of 2'))).toBeDefined();
    phone.pressButton('home');
    expect(findElement(phone, byLabel('page 1 of 2'))).toBeDefined();
    expect(element(phone, byLabel('Settings', 'Icon')).visible).toBe(true);
  });

  it('goes home with an upward swipe from the bottom edge on a phone without a home button', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Preferences');
    phone.drag(196, 850, 196, 500, 0.2);
    expect(phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);
  });

  it('knows its hardware buttons', () => {
    const phone = createPhone();
    expect(() => phone.pressButton('volumeUp')).not.toThrow();
    expect(() => phone.pressButton('power')).toThrow(expect.objectContaining({ kind: 'unknown_button' }));
  });

  it('locks to a lock screen showing the time, and unlocks back to the same app', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Preferences');
    const unlocked = phone.renderPng();
    phone.lock();
    expect(phone.isLocked()).toBe(true);
    expect(phone.activeApp().bundleId).toBe(SPRINGBOARD_BUNDLE_ID);
    expect(findElement(phone, byLabel('9:41', 'StaticText'))).toBeDefined();
    expect(phone.renderPng().equals(unlocked)).toBe(false);
    phone.unlock();
    expect(phone.isLocked()).toBe(false);
    expect(phone.activeApp().bundleId).toBe('com.apple.Preferences');
    phone.lock();
    phone.drag(196, 800, 196, 300, 0.3);
    expect(phone.isLocked()).toBe(false);
  });

  it('reports battery and device name', () => {
    const phone = createPhone({ deviceName: 'Test Phone' });
    expect(phone.battery()).toEqual({ level: 0.85, state: 1 });
    expect(phone.deviceName()).toBe('Test Phone');
  });

  it('validates coordinates', () => {
    const phone = createPhone();
    expect(() => phone.tap(Number.NaN, 3)).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
    expect(() => phone.drag(0, 0, 10, 10, -1)).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
  });
});

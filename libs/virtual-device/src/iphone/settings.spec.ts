import { createPhone, PROFILES, SETTINGS_BUNDLE_ID, SETTINGS_ROW_TITLES } from './index';
import type { Phone } from './model';
import { allElements, byLabel, decode, element, findElement, isGreen, tapElement } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

function openSettings(profile?: string): Phone {
  const phone = createPhone({ profile, deviceName: 'Apex Test Phone' });
  phone.launchApp(SETTINGS_BUNDLE_ID);
  return phone;
}

const wifiSwitch = (phone: Phone) => element(phone, (e) => e.type === 'Switch' && e.label === 'Wi-Fi', 'Wi-Fi switch');

describe('Settings', () => {
  it('shows a waiting update in a row above all others, and every row below moves down by it', () => {
    const phone = openSettings();
    const generalAt = () => element(phone, byLabel('General', 'Cell')).rect.y;
    const before = generalAt();
    phone.setSoftwareUpdate('iOS 17.6');
    const cells = element(phone, (e) => e.type === 'Table').children.filter((c) => c.type === 'Cell');
    expect(cells.map((c) => c.label)).toEqual(['Software Update Available', ...SETTINGS_ROW_TITLES]);
    expect(generalAt()).toBeGreaterThan(before);
    tapElement(phone, cells[0]);
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Software Update');
    phone.setSoftwareUpdate(null);
    phone.terminateApp(SETTINGS_BUNDLE_ID);
    phone.launchApp(SETTINGS_BUNDLE_ID);
    expect(generalAt()).toBe(before);
    expect(() => phone.setSoftwareUpdate(' ')).toThrow(/softwareUpdate must name the update/);
    const updating = createPhone({ softwareUpdate: 'iOS 18.0' });
    updating.launchApp(SETTINGS_BUNDLE_ID);
    expect(element(updating, (e) => e.type === 'Cell').label).toBe('Software Update Available');
  });

  it('shows a navigation bar and a table of cells with titles', () => {
    const phone = openSettings();
    const app = phone.snapshot();
    expect(app.label).toBe('Settings');
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Settings');
    const table = element(phone, (e) => e.type === 'Table');
    const cells = table.children.filter((c) => c.type === 'Cell');
    expect(cells.map((c) => c.label)).toEqual(SETTINGS_ROW_TITLES);
    for (const cell of cells) {
      expect(cell.children.some((c) => c.type === 'StaticText' && c.label === cell.label)).toBe(true);
      expect(cell.traits).toContain('Button');
    }
    for (const title of ['Airplane Mode', 'Wi-Fi', 'Bluetooth']) {
      expect(element(phone, byLabel(title, 'Switch')).value).toMatch(/^[01]$/);
    }
  });

  it.each(['Wi-Fi', 'Bluetooth', 'Airplane Mode'])('flips %s on a tap of the switch, in value and in pixels', async (title) => {
    const phone = openSettings();
    const sw = () => element(phone, byLabel(title, 'Switch'));
    const before = sw().value;
    // Left end of the track: green when on, under the white knob when off.
    const x = sw().rect.x + 6;
    const y = sw().rect.y + sw().rect.height / 2;
    const pixelsBefore = await decode(phone.renderPng(), 3);
    tapElement(phone, sw());
    const after = sw().value;
    expect(after).toBe(before === '1' ? '0' : '1');
    const pixelsAfter = await decode(phone.renderPng(), 3);
    expect(isGreen(pixelsBefore.at(x, y))).toBe(before === '1');
    expect(isGreen(pixelsAfter.at(x, y))).toBe(after === '1');
  });

  it('flips a switch when the row itself is tapped', () => {
    const phone = openSettings();
    const cell = element(phone, byLabel('Bluetooth', 'Cell'));
    expect(wifiSwitch(phone).value).toBe('1');
    tapElement(phone, element(phone, byLabel('Wi-Fi', 'Cell')));
    expect(wifiSwitch(phone).value).toBe('0');
    tapElement(phone, cell);
    expect(element(phone, byLabel('Bluetooth', 'Switch')).value).toBe('0');
  });

  it('scrolls with vertical drags: bottom rows become visible and move up, and the scroll is clamped', () => {
    const phone = openSettings();
    const safari = () => element(phone, byLabel('Safari', 'Cell'));
    const airplane = () => element(phone, byLabel('Airplane Mode', 'Cell'));
    expect(safari().visible).toBe(false);
    expect(airplane().visible).toBe(true);
    const y0 = safari().rect.y;
    phone.drag(200, 700, 200, 250, 0.3);
    expect(safari().rect.y).toBe(y0 - 450);
    for (let i = 0; i < 5; i++) phone.drag(200, 700, 200, 200, 0.3);
    expect(safari().visible).toBe(true);
    expect(safari().rect.y + safari().rect.height).toBeLessThanOrEqual(852);
    expect(airplane().visible).toBe(false);
    const bottom = safari().rect.y;
    phone.drag(200, 700, 200, 200, 0.3);
    expect(safari().rect.y).toBe(bottom);
    // A visible row at the bottom is tappable where it is drawn.
    tapElement(phone, safari());
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Safari');
  });

  it('drills into General → About, shows the device name and iOS version, and goes Back', () => {
    const phone = openSettings();
    tapElement(phone, element(phone, byLabel('General', 'Cell')));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('General');
    const back = element(phone, byLabel('Settings', 'Button'));
    expect(back.traits).toContain('Button');
    tapElement(phone, element(phone, byLabel('About', 'Cell')));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('About');
    const texts = allElements(phone.snapshot()).filter((e) => e.type === 'StaticText').map((e) => e.label);
    expect(texts).toEqual(expect.arrayContaining(['Name', 'Apex Test Phone', 'iOS Version', '17.5', 'Model Name', 'iPhone 15']));
    const name = element(phone, byLabel('Name', 'Cell'));
    expect(name.children.map((c) => c.label)).toEqual(['Name', 'Apex Test Phone']);
    tapElement(phone, element(phone, byLabel('General', 'Button')));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('General');
    tapElement(phone, element(phone, byLabel('Settings', 'Button')));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Settings');
    expect(findElement(phone, byLabel('Settings', 'Button'))).toBeUndefined();
  });

  it('keeps its state when backgrounded; terminate resets navigation but keeps the toggles', () => {
    const phone = openSettings();
    tapElement(phone, wifiSwitch(phone));
    phone.drag(200, 700, 200, 300, 0.3);
    const scrolled = element(phone, byLabel('General', 'Cell')).rect.y;
    tapElement(phone, element(phone, byLabel('General', 'Cell')));
    const pid = phone.activeApp().pid;
    phone.goHome();
    phone.launchApp(SETTINGS_BUNDLE_ID);
    expect(phone.activeApp().pid).toBe(pid);
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('General');
    tapElement(phone, element(phone, byLabel('Settings', 'Button')));
    expect(element(phone, byLabel('General', 'Cell')).rect.y).toBe(scrolled);

    expect(phone.terminateApp(SETTINGS_BUNDLE_ID)).toBe(true);
    expect(phone.appState(SETTINGS_BUNDLE_ID)).toBe(1);
    expect(phone.terminateApp(SETTINGS_BUNDLE_ID)).toBe(false);
    phone.launchApp(SETTINGS_BUNDLE_ID);
    expect(phone.activeApp().pid).not.toBe(pid);
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Settings');
    expect(element(phone, byLabel('Airplane Mode', 'Cell')).visible).toBe(true);
    expect(wifiSwitch(phone).value).toBe('0');
  });

  it('lays out on the iPhone SE profile too', () => {
    const phone = openSettings('iphone-se');
    const se = PROFILES['iphone-se'];
    const nav = element(phone, (e) => e.type === 'NavigationBar');
    expect(nav.rect.y).toBe(se.statusBarHeight);
    tapElement(phone, element(phone, byLabel('General', 'Cell')));
    tapElement(phone, element(phone, byLabel('About', 'Cell')));
    expect(element(phone, byLabel('Model Name', 'Cell')).children[1].label).toBe('iPhone SE (3rd generation)');
  });
});

import { createPhone, PhoneError } from './index';
import { byLabel, center, decode, element, findElement } from '../testing';
import type { Phone, PhoneElement } from './model';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

async function pixels(phone: Phone) {
  return decode(phone.renderPng(), phone.profile.scale);
}

function longPress(phone: Phone, e: PhoneElement, seconds = 0.8): void {
  const c = center(e.rect);
  phone.longPress(c.x, c.y, seconds);
}

const isMenuGrey = ([r, g, b]: number[]) => r === 242 && g === 242 && b === 242;

describe('long press on a home-screen icon', () => {
  it('opens its context menu (elements and pixels); a tap outside closes it', async () => {
    const phone = createPhone();
    const notes = element(phone, byLabel('Notes', 'Icon'));
    longPress(phone, notes);
    const menu = element(phone, (e) => e.identifier === 'Context Menu', 'context menu');
    expect(menu.children.map((c) => [c.type, c.label])).toEqual([
      ['Button', 'Share App'],
      ['Button', 'Edit Home Screen'],
      ['Button', 'Remove App'],
    ]);
    expect(menu.rect.y).toBeGreaterThanOrEqual(notes.rect.y + notes.rect.height);
    const shot = await pixels(phone);
    const item = element(phone, byLabel('Remove App', 'Button'));
    expect(isMenuGrey(shot.at(item.rect.x + item.rect.width - 10, item.rect.y + 10))).toBe(true);
    // still SpringBoard: the app did not launch
    expect(phone.activeApp().name).toBe('SpringBoard');

    phone.tap(5, phone.screenSize().height / 2);
    expect(findElement(phone, (e) => e.identifier === 'Context Menu')).toBeUndefined();
    expect(phone.activeApp().name).toBe('SpringBoard');
  });

  it('Remove App asks first; Cancel keeps the app, Delete App removes icon and app', () => {
    const phone = createPhone();
    longPress(phone, element(phone, byLabel('Notes', 'Icon')));
    const removeApp = element(phone, byLabel('Remove App', 'Button'));
    phone.tap(center(removeApp.rect).x, center(removeApp.rect).y);
    expect(phone.alert()).toEqual({ text: 'Remove \u201cNotes\u201d?\nRemoving from Home Screen will keep the app in your App Library.', buttons: ['Delete App', 'Remove from Home Screen', 'Cancel'] });
    phone.dismissAlert();
    expect(phone.alert()).toBeNull();
    expect(findElement(phone, byLabel('Notes', 'Icon'))).toBeDefined();

    longPress(phone, element(phone, byLabel('Notes', 'Icon')));
    const again = element(phone, byLabel('Remove App', 'Button'));
    phone.tap(center(again.rect).x, center(again.rect).y);
    phone.acceptAlert('Delete App');
    expect(findElement(phone, byLabel('Notes', 'Icon'))).toBeUndefined();
    expect(phone.installedApps().map((a) => a.name)).not.toContain('Notes');
    expect(() => phone.launchApp('com.apple.mobilenotes')).toThrow(PhoneError);
  });

  it('Remove from Home Screen takes the icon away but keeps the app', () => {
    const phone = createPhone();
    longPress(phone, element(phone, byLabel('Maps', 'Icon')));
    const removeApp = element(phone, byLabel('Remove App', 'Button'));
    phone.tap(center(removeApp.rect).x, center(removeApp.rect).y);
    phone.acceptAlert();
    expect(findElement(phone, byLabel('Maps', 'Icon'))).toBeUndefined();
    phone.launchApp('com.apple.Maps');
    expect(phone.activeApp().name).toBe('Maps');
  });

  it('a short press still launches the app', () => {
    const phone = createPhone();
    longPress(phone, element(phone, byLabel('Notes', 'Icon')), 0.2);
    expect(phone.activeApp().name).toBe('Notes');
  });
});


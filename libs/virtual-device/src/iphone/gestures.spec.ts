import { createPhone, PhoneError } from './index';
import { allElements, byLabel, center, decode, element, findElement } from '../testing';
import type { Phone, PhoneElement } from './model';
import { HOME_URL, layoutPage, pageFor } from './apps/web-pages';

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


describe('Photos', () => {
  function openPhotos(options: Parameters<typeof createPhone>[0] = {}): Phone {
    const phone = createPhone(options);
    phone.launchApp('com.apple.mobileslideshow');
    return phone;
  }

  it('opens a tapped photo; a double tap zooms it around the finger and a second one zooms back', async () => {
    const phone = openPhotos();
    const thumb = element(phone, byLabel('Photo 2', 'Image'));
    phone.tap(center(thumb.rect).x, center(thumb.rect).y);
    const photo = element(phone, byLabel('Photo 2', 'Image'), 'full-screen photo');
    expect(photo.rect.width).toBeGreaterThan(thumb.rect.width * 2);
    const before = await pixels(phone);
    const point = { x: photo.rect.x + photo.rect.width * 0.25, y: photo.rect.y + photo.rect.height * 0.25 };

    phone.doubleTap(point.x, point.y);
    const zoomed = element(phone, byLabel('Photo 2', 'Image'));
    expect(zoomed.rect.width).toBeCloseTo(photo.rect.width * 2.5, 1);
    // the point under the finger stays put
    expect(zoomed.rect.x + (point.x - photo.rect.x) * 2.5).toBeCloseTo(point.x, 1);
    const after = await pixels(phone);
    let changed = 0;
    for (let y = photo.rect.y; y < photo.rect.y + photo.rect.height; y += 8) {
      for (let x = photo.rect.x; x < photo.rect.x + photo.rect.width; x += 8) if (before.at(x, y).join() !== after.at(x, y).join()) changed++;
    }
    expect(changed).toBeGreaterThan(50);

    phone.doubleTap(point.x, point.y);
    expect(element(phone, byLabel('Photo 2', 'Image')).rect).toEqual(photo.rect);
  });

  it('pinches a photo between 1× and 5×', () => {
    const phone = openPhotos();
    const thumb = element(phone, byLabel('Photo 1', 'Image'));
    phone.tap(center(thumb.rect).x, center(thumb.rect).y);
    const photo = element(phone, byLabel('Photo 1', 'Image'));
    const c = center(photo.rect);
    phone.pinch(c.x, c.y, 2);
    expect(element(phone, byLabel('Photo 1', 'Image')).rect.width).toBeCloseTo(photo.rect.width * 2, 1);
    phone.pinch(c.x, c.y, 100);
    expect(element(phone, byLabel('Photo 1', 'Image')).rect.width).toBeCloseTo(photo.rect.width * 5, 1);
    phone.pinch(c.x, c.y, 0.01);
    expect(element(phone, byLabel('Photo 1', 'Image')).rect).toEqual(photo.rect);
    expect(() => phone.pinch(c.x, c.y, 0)).toThrow(PhoneError);
  });

  it('asks for library access on first launch when access is undetermined, and not again', () => {
    const phone = openPhotos({ photoLibraryAccess: 'undetermined' });
    expect(phone.alert()?.buttons).toEqual(['Limit Access\u2026', 'Allow Full Access', "Don't Allow"]);
    expect(phone.alert()?.text).toContain('Would Like to Access Your Photos');
    // the alert's buttons are real elements over the library
    expect(findElement(phone, byLabel('Allow Full Access', 'Button'))).toBeDefined();
    phone.acceptAlert();
    expect(phone.alert()).toBeNull();
    phone.goHome();
    phone.launchApp('com.apple.mobileslideshow');
    expect(phone.alert()).toBeNull();
  });

  it('opens directly on a phone already set up (the default)', () => {
    expect(openPhotos().alert()).toBeNull();
  });
});

describe('Maps', () => {
  it('pinch changes the zoom level: in the Map element’s value and in the pixels', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Maps');
    const map = () => element(phone, (e) => e.identifier === 'Map', 'map');
    const c = center(map().rect);
    // the location alert is over the map: the pinch reaches the alert, not the map
    phone.pinch(c.x, c.y, 2);
    expect(map().value).toBe('Zoom level 14');
    phone.acceptAlert();

    const before = await pixels(phone);
    phone.pinch(c.x, c.y, 2);
    expect(map().value).toBe('Zoom level 15');
    const after = await pixels(phone);
    let changed = 0;
    for (let y = 100; y < map().rect.height; y += 10) for (let x = 0; x < map().rect.width; x += 10) if (before.at(x, y).join() !== after.at(x, y).join()) changed++;
    expect(changed).toBeGreaterThan(100);

    phone.pinch(c.x, c.y, 0.25);
    expect(map().value).toBe('Zoom level 13');
    phone.pinch(c.x, c.y, 10_000);
    expect(map().value).toBe('Zoom level 20');
    phone.pinch(c.x, c.y, 0.0001);
    expect(map().value).toBe('Zoom level 11');
  });
});

describe('Reminders', () => {
  const titles = (phone: Phone) =>
    allElements(phone.snapshot())
      .filter((e) => e.type === 'Cell')
      .sort((a, b) => a.rect.y - b.rect.y)
      .map((e) => e.label);

  it('a drag after a hold moves the reminder to where the finger lifts; a plain drag does not', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.reminders');
    const original = titles(phone);
    const first = element(phone, byLabel('Buy milk', 'Cell'));
    const fourth = element(phone, byLabel('Pay the electricity bill', 'Cell'));
    const from = center(first.rect);
    const to = center(fourth.rect);

    phone.drag(from.x, from.y, to.x, to.y, 0);
    expect(titles(phone)).toEqual(original);

    const before = await pixels(phone);
    phone.drag(from.x, from.y, to.x, to.y, 1);
    expect(titles(phone)).toEqual(['Call the dentist', 'Water the plants', 'Pay the electricity bill', 'Buy milk', 'Book train tickets']);
    // the id follows the reminder
    const moved = element(phone, (e) => e.identifier === 'reminder-check-0');
    expect(moved.rect.y).toBeGreaterThan(fourth.rect.y - 1);
    const after = await pixels(phone);
    expect(before.crop(first.rect).equals(after.crop(first.rect))).toBe(false);
    // and so does its completion
    phone.tap(center(moved.rect).x, center(moved.rect).y);
    expect(element(phone, byLabel('Buy milk', 'Cell')).selected).toBe(true);
  });
});

describe('the edit menu of text inputs', () => {
  const items = (phone: Phone) => findElement(phone, (e) => e.identifier === 'Edit Menu')?.children.map((c) => c.label) ?? [];
  const press = (phone: Phone, label: string) => {
    const item = element(phone, (e) => e.type === 'MenuItem' && e.label === label, `menu item ${label}`);
    phone.tap(center(item.rect).x, center(item.rect).y);
  };

  it('long press → Select All → Copy puts the text on the pasteboard; Paste in another app types it', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobilenotes');
    const note = element(phone, (e) => e.identifier === 'note-body');
    // empty note, empty pasteboard: nothing to offer, no menu
    longPress(phone, note);
    expect(items(phone)).toEqual([]);
    phone.typeText('Hello from Notes');

    longPress(phone, element(phone, (e) => e.identifier === 'note-body'));
    expect(items(phone)).toEqual(['Select All']);
    const menu = element(phone, (e) => e.identifier === 'Edit Menu');
    const shot = await pixels(phone);
    expect(shot.at(menu.rect.x + 3, menu.rect.y + menu.rect.height / 2).slice(0, 3)).toEqual([51, 51, 54]);
    press(phone, 'Select All');
    expect(items(phone)).toEqual(['Cut', 'Copy']);
    press(phone, 'Copy');
    expect(items(phone)).toEqual([]);
    expect(phone.pasteboard('plaintext').toString('utf8')).toBe('Hello from Notes');

    phone.launchApp('com.apple.MobileSMS');
    const field = element(phone, (e) => e.identifier === 'messageBodyField');
    longPress(phone, field);
    expect(element(phone, (e) => e.identifier === 'messageBodyField').focused).toBe(true);
    expect(items(phone)).toEqual(['Paste']);
    press(phone, 'Paste');
    expect(element(phone, (e) => e.identifier === 'messageBodyField').value).toBe('Hello from Notes');
  });

  it('pastes what setPasteboard put there, on one line in a single-line field; Cut empties the field', () => {
    const phone = createPhone();
    phone.setPasteboard('plaintext', Buffer.from('apex.example/docs\nignored line', 'utf8'));
    phone.launchApp('com.apple.mobilesafari');
    const address = element(phone, (e) => e.identifier === 'URL');
    longPress(phone, address);
    // Safari selects the whole address on focus
    expect(items(phone)).toEqual(['Cut', 'Copy', 'Paste']);
    press(phone, 'Paste');
    expect(element(phone, (e) => e.identifier === 'URL').value).toBe('apex.example/docs ignored line');
    longPress(phone, element(phone, (e) => e.identifier === 'URL'));
    press(phone, 'Select All');
    press(phone, 'Cut');
    expect(element(phone, (e) => e.identifier === 'URL').value).toBe('');
    expect(phone.pasteboard('plaintext').toString('utf8')).toBe('apex.example/docs ignored line');
  });
});

describe('Safari', () => {
  /** Where the home page's first link is drawn (web text is pixels only, so the layout says). */
  function firstLink(phone: Phone) {
    const page = pageFor(HOME_URL);
    const placed = layoutPage(page, phone.screenSize().width).blocks.find((b) => b.block.href);
    if (!placed?.block.href) throw new Error('the home page has no link');
    const webView = element(phone, (e) => e.type === 'WebView');
    return { x: 60, y: webView.rect.y + placed.y + placed.height / 2, href: placed.block.href };
  }

  it('a long press on a link opens its preview menu; Copy Link copies it, Open Link follows it', async () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobilesafari');
    const link = firstLink(phone);
    const before = await pixels(phone);
    phone.longPress(link.x, link.y, 1);
    expect(element(phone, (e) => e.identifier === 'URL').value).toBe(HOME_URL);
    const preview = element(phone, (e) => e.identifier === 'Preview', 'link preview');
    expect(preview.label).toBe('Getting started, apex.example');
    const menu = element(phone, (e) => e.identifier === 'Context Menu');
    expect(menu.children.map((c) => c.label)).toEqual(['Open Link', 'Add to Reading List', 'Copy Link', 'Share\u2026']);
    const after = await pixels(phone);
    expect(before.crop(preview.rect).equals(after.crop(preview.rect))).toBe(false);

    const copy = element(phone, byLabel('Copy Link', 'Button'));
    phone.tap(center(copy.rect).x, center(copy.rect).y);
    expect(phone.pasteboard('url').toString('utf8')).toBe(link.href);
    expect(findElement(phone, (e) => e.identifier === 'Context Menu')).toBeUndefined();

    phone.longPress(link.x, link.y, 1);
    const open = element(phone, byLabel('Open Link', 'Button'));
    phone.tap(center(open.rect).x, center(open.rect).y);
    expect(element(phone, (e) => e.identifier === 'URL').value).toBe(link.href);
  });

  it('a long press beside the links opens nothing', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobilesafari');
    const link = firstLink(phone);
    phone.longPress(link.x, link.y - 60, 1);
    expect(findElement(phone, (e) => e.identifier === 'Context Menu')).toBeUndefined();
  });
});

describe('landscape', () => {
  const APPS = ['com.apple.Preferences', 'com.apple.mobilenotes', 'com.apple.mobilesafari', 'com.apple.MobileSMS', 'com.apple.mobileslideshow', 'com.apple.Maps', 'com.apple.reminders', 'com.apple.mobiletimer'];

  it.each(['iphone-15', 'iphone-se'])('every app lays out in the wider frame (%s): source, bars and pixels', async (profile) => {
    for (const bundleId of APPS) {
      const phone = createPhone({ profile });
      phone.launchApp(bundleId);
      phone.setOrientation('LANDSCAPE');
      if (phone.alert()) phone.acceptAlert();
      const { width, height } = phone.screenSize();
      expect(width).toBe(phone.profile.height);
      const root = phone.snapshot();
      expect([root.rect.width, root.rect.height]).toEqual([width, height]);
      const shown = allElements(root).filter((e) => e.visible && e.accessible);
      expect([bundleId, shown.length > 1]).toEqual([bundleId, true]);
      // on screen means inside the rotated frame, not the portrait one
      for (const e of shown.filter((x) => x.type !== 'Image')) {
        expect([bundleId, e.label, e.rect.x + e.rect.width <= width + 0.5]).toEqual([bundleId, e.label, true]);
      }
      for (const bar of allElements(root).filter((e) => e.type === 'NavigationBar' || e.type === 'Toolbar' || e.type === 'TabBar')) {
        expect([bundleId, bar.rect.width]).toEqual([bundleId, width]);
      }
      const shot = await pixels(phone);
      expect([shot.width, shot.height]).toEqual([width * phone.profile.scale, height * phone.profile.scale]);
    }
  });

  it('the home and lock screens stay portrait; an app held in landscape turns back when it returns', () => {
    const phone = createPhone();
    expect(() => phone.setOrientation('LANDSCAPE')).toThrow(expect.objectContaining({ kind: 'rotation_refused' }));
    expect(phone.orientation()).toBe('PORTRAIT');
    phone.launchApp('com.apple.Preferences');
    phone.setOrientation('LANDSCAPE');
    phone.pressButton('home');
    expect([phone.orientation(), phone.screenSize().width]).toEqual(['PORTRAIT', 393]);
    phone.launchApp('com.apple.Preferences');
    expect([phone.orientation(), phone.screenSize().width]).toEqual(['LANDSCAPE', 852]);
    phone.lock();
    expect(phone.orientation()).toBe('PORTRAIT');
    expect(() => phone.setOrientation('LANDSCAPE')).toThrow(expect.objectContaining({ kind: 'rotation_refused' }));
  });

  it('a Plus home screen turns: it keeps its dock (at the right edge) and its icons work', () => {
    const phone = createPhone({ profile: 'iphone-15-plus' });
    phone.setOrientation('LANDSCAPE');
    expect(phone.screenSize()).toEqual({ width: 932, height: 430 });
    const dock = element(phone, (e) => e.identifier === 'Dock');
    expect(dock.children.map((c) => c.label)).toEqual(['Phone', 'Safari', 'Messages', 'Music']);
    expect(dock.rect.x).toBeGreaterThan(phone.screenSize().width / 2);
    const grid = allElements(phone.snapshot()).filter((e) => e.type === 'Icon' && e.visible && !dock.children.some((d) => d.uid === e.uid));
    for (const icon of grid) expect(icon.rect.x + icon.rect.width).toBeLessThanOrEqual(dock.rect.x);
    const safari = element(phone, byLabel('Safari', 'Icon'));
    phone.tap(center(safari.rect).x, center(safari.rect).y);
    expect(phone.activeApp().name).toBe('Safari');
  });
});

describe('dark appearance', () => {
  const APPS = ['com.apple.Preferences', 'com.apple.mobilenotes', 'com.apple.mobilesafari', 'com.apple.MobileSMS', 'com.apple.mobileslideshow', 'com.apple.Maps', 'com.apple.reminders', 'com.apple.mobiletimer', 'com.apple.calculator'];
  const luminance = ([r, g, b]: number[]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

  it('every app and the context menus draw dark when the appearance is dark', async () => {
    for (const bundleId of APPS) {
      const phone = createPhone();
      phone.launchApp(bundleId);
      if (phone.alert()) phone.acceptAlert();
      const { width, height } = phone.screenSize();
      // the mean over a grid of points: backgrounds, bars and text all change; pictures do not
      const mean = async () => {
        const shot = await pixels(phone);
        let sum = 0;
        let n = 0;
        for (let y = 5; y < height; y += 20) for (let x = 5; x < width; x += 20, n++) sum += luminance(shot.at(x, y));
        return sum / n;
      };
      const light = await mean();
      phone.setAppearance('dark');
      const dark = await mean();
      expect([bundleId, dark < light * 0.75]).toEqual([bundleId, true]);
    }
    const phone = createPhone({ appearance: 'dark' });
    longPress(phone, element(phone, byLabel('Notes', 'Icon')));
    const item = element(phone, byLabel('Share App', 'Button'));
    expect(luminance((await pixels(phone)).at(item.rect.x + item.rect.width - 8, item.rect.y + 8))).toBeLessThan(80);
  });
});

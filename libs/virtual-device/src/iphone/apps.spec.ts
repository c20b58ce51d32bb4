import { createPhone } from './index';
import type { Phone, PhoneElement } from './model';
import { allElements, byLabel, decode, element, findElement, tapElement } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

describe('Safari', () => {
  const open = (): Phone => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobilesafari');
    return phone;
  };

  it('has an address field and a web view whose page text is pixels only', () => {
    const phone = open();
    const address = element(phone, (e) => e.type === 'TextField');
    expect(address.value).toBe('https://apex.example/');
    const web = element(phone, (e) => e.type === 'WebView');
    expect(web.children).toEqual([]);
    const words = allElements(phone.snapshot()).flatMap((e) => [e.label ?? '', e.value ?? '', e.identifier ?? '']);
    for (const text of ['Welcome to Apex', 'pixels only', 'What you can do']) {
      expect(words.some((w) => w.includes(text))).toBe(false);
    }
  });

  it('scrolls the page with a drag (pixels change, tree does not)', () => {
    const phone = open();
    const before = phone.renderPng();
    const tree = JSON.stringify(phone.snapshot());
    phone.drag(200, 600, 200, 300, 0.3);
    expect(phone.renderPng().equals(before)).toBe(false);
    expect(JSON.stringify(phone.snapshot())).toBe(tree);
  });

  it('navigates by typing an address and going Back', () => {
    const phone = open();
    tapElement(phone, element(phone, (e) => e.type === 'TextField'));
    expect(findElement(phone, (e) => e.type === 'Keyboard')).toBeDefined();
    // Focusing selects the whole address, so typing replaces it.
    expect(element(phone, (e) => e.type === 'TextField')).toMatchObject({ value: 'https://apex.example/', focused: true });
    phone.typeText('apex.example/docs\n');
    expect(findElement(phone, (e) => e.type === 'Keyboard')).toBeUndefined();
    expect(element(phone, (e) => e.type === 'TextField').value).toBe('https://apex.example/docs');
    const back = element(phone, byLabel('Back', 'Button'));
    expect(back.enabled).toBe(true);
    tapElement(phone, back);
    expect(element(phone, (e) => e.type === 'TextField').value).toBe('https://apex.example/');
  });
});

describe('Photos', () => {
  const open = (): Phone => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobileslideshow');
    return phone;
  };
  const unlabeled = (phone: Phone): PhoneElement[] =>
    allElements(phone.snapshot()).filter((e) => e.type === 'Button' && !e.label && !e.identifier);

  it('has unlabeled icon buttons, two of them drawn with identical glyphs', async () => {
    const phone = open();
    const buttons = unlabeled(phone);
    expect(buttons.length).toBeGreaterThanOrEqual(5);
    for (const b of buttons) expect(b.traits).toEqual(['Button']);
    const trash = buttons.filter((b) => b.uid.endsWith('/trash'));
    expect(trash).toHaveLength(2);
    const pixels = await decode(phone.renderPng(), 3);
    const [a, b] = trash.map((t) => pixels.crop(t.rect));
    expect(a.equals(b)).toBe(true);
    const gear = buttons.find((x) => x.uid === 'photos/settings');
    expect(gear && pixels.crop(gear.rect).equals(a)).toBe(false);
  });

  it('acts on its icon buttons: plus adds, trash removes, gear and magnifier open screens, back returns', () => {
    const phone = open();
    const count = () => element(phone, (e) => e.type === 'StaticText' && /Photos?$/.test(e.label ?? '')).label;
    expect(count()).toBe('12 Photos');
    const byUid = (uid: string) => element(phone, (e) => e.uid === uid, uid);
    tapElement(phone, byUid('photos/add'));
    expect(count()).toBe('13 Photos');
    tapElement(phone, byUid('photos/favorites/trash'));
    tapElement(phone, byUid('photos/recents/trash'));
    expect(count()).toBe('11 Photos');
    tapElement(phone, byUid('photos/settings'));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Photos Settings');
    tapElement(phone, byUid('photos/back'));
    tapElement(phone, byUid('photos/search'));
    const field = element(phone, (e) => e.type === 'SearchField');
    tapElement(phone, field);
    phone.typeText('cats');
    expect(findElement(phone, byLabel('No Results for "cats"'))).toBeDefined();
    tapElement(phone, byUid('photos/back'));
    tapElement(phone, byUid('photos/share'));
    expect(findElement(phone, byLabel('Share 11 Photos'))).toBeDefined();
    tapElement(phone, byUid('photos/share/close'));
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Library');
  });
});

describe('Maps', () => {
  const MAPS = 'com.apple.Maps';

  it('asks for location on first launch only; a button tap closes the alert', () => {
    const phone = createPhone();
    expect(phone.alert()).toBeNull();
    phone.launchApp(MAPS);
    const alert = phone.alert();
    expect(alert?.text).toContain('Allow \u201cMaps\u201d to use your location?');
    expect(alert?.buttons).toEqual(['Allow Once', 'Allow While Using App', "Don't Allow"]);
    const alertEl = element(phone, (e) => e.type === 'Alert');
    expect(alertEl.label).toBe('Allow \u201cMaps\u201d to use your location?');
    // Taps outside the alert are swallowed.
    phone.tap(30, 100);
    expect(phone.alert()).not.toBeNull();
    tapElement(phone, element(phone, byLabel('Allow Once', 'Button')));
    expect(phone.alert()).toBeNull();
    expect(findElement(phone, (e) => e.type === 'Alert')).toBeUndefined();
    phone.terminateApp(MAPS);
    phone.launchApp(MAPS);
    expect(phone.alert()).toBeNull();
  });

  it('accepts and dismisses by default or by label, and reports no alert', () => {
    const a = createPhone();
    a.launchApp(MAPS);
    a.acceptAlert();
    expect(a.alert()).toBeNull();
    expect(() => a.acceptAlert()).toThrow(expect.objectContaining({ kind: 'no_alert' }));

    const b = createPhone();
    b.launchApp(MAPS);
    expect(() => b.dismissAlert('Maybe')).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
    b.goHome();
    expect(b.alert()).toBeNull();
    b.launchApp(MAPS);
    b.dismissAlert("Don't Allow");
    expect(b.alert()).toBeNull();
  });
});

describe('apps and processes', () => {
  it('lists installed apps, gives running apps pids, and reports states', () => {
    const phone = createPhone();
    const ids = phone.installedApps().map((a) => a.bundleId);
    expect(ids).toEqual(
      expect.arrayContaining(['com.apple.Preferences', 'com.apple.mobilenotes', 'com.apple.mobilesafari', 'com.apple.mobileslideshow', 'com.apple.Maps']),
    );
    expect(phone.appState('com.example.nothing')).toBe(0);
    expect(phone.appState('com.apple.mobilenotes')).toBe(1);
    expect(() => phone.launchApp('com.example.nothing')).toThrow(expect.objectContaining({ kind: 'app_not_installed' }));
    phone.launchApp('com.apple.mobilenotes');
    phone.launchApp('com.apple.Preferences');
    const running = phone.runningApps();
    expect(running.map((r) => r.bundleId)).toEqual(['com.apple.springboard', 'com.apple.mobilenotes', 'com.apple.Preferences']);
    expect(new Set(running.map((r) => r.pid)).size).toBe(3);
    expect(phone.appState('com.apple.mobilenotes')).toBe(3);
    expect(phone.appState('com.apple.Preferences')).toBe(4);
    expect(phone.terminateApp('com.apple.Preferences')).toBe(true);
    expect(phone.activeApp().bundleId).toBe('com.apple.springboard');
  });

  it('opens every home-screen app to a titled screen', () => {
    const phone = createPhone();
    for (const app of phone.installedApps()) {
      phone.launchApp(app.bundleId);
      if (phone.alert()) phone.dismissAlert();
      expect(phone.snapshot().label).toBe(app.name);
      expect(phone.activeApp().bundleId).toBe(app.bundleId);
    }
  });

  it('keeps uids stable for the same element', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Preferences');
    const uid = element(phone, byLabel('Wi-Fi', 'Switch')).uid;
    tapElement(phone, element(phone, byLabel('Wi-Fi', 'Switch')));
    phone.goHome();
    phone.launchApp('com.apple.Preferences');
    expect(element(phone, byLabel('Wi-Fi', 'Switch')).uid).toBe(uid);
  });
});

describe('tabbed apps', () => {
  it('marks the selected tab with the Selected trait and switches on tap', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.mobiletimer');
    const tab = (label: string) => element(phone, byLabel(label, 'Button'));
    expect(element(phone, (e) => e.type === 'TabBar').children).toHaveLength(4);
    expect(tab('World Clock')).toMatchObject({ selected: true, traits: ['Button', 'Selected'] });
    expect(tab('Alarms')).toMatchObject({ selected: false, traits: ['Button'] });
    tapElement(phone, tab('Alarms'));
    expect(tab('Alarms').traits).toEqual(['Button', 'Selected']);
    expect(element(phone, (e) => e.type === 'NavigationBar').label).toBe('Alarms');
    expect(findElement(phone, byLabel('No Alarms'))).toBeDefined();
  });
});

describe('Messages', () => {
  const open = (): Phone => {
    const phone = createPhone();
    phone.launchApp('com.apple.MobileSMS');
    return phone;
  };
  const field = (phone: Phone) => element(phone, (e) => e.type === 'TextField', 'message field');
  const bubbles = (phone: Phone) => allElements(phone.snapshot()).filter((e) => e.type === 'StaticText' && e.identifier === 'outgoing').map((e) => e.label);

  it('sends a typed message with the Send button; the bubble is in the tree and the field empties', () => {
    const phone = open();
    expect(element(phone, byLabel('Send', 'Button')).enabled).toBe(false);
    tapElement(phone, field(phone));
    expect(findElement(phone, (e) => e.type === 'Keyboard')).toBeDefined();
    phone.typeText('See you at noon');
    expect(field(phone).value).toBe('See you at noon');
    const send = element(phone, byLabel('Send', 'Button'));
    expect(send.enabled).toBe(true);
    tapElement(phone, send);
    expect(field(phone).value).toBe('');
    expect(bubbles(phone)).toEqual(['Yes, at 10 in the library.', 'See you at noon']);
    const bubble = element(phone, byLabel('See you at noon', 'StaticText'));
    expect(bubble.visible).toBe(true);
  });

  it('sends on return and keeps the conversation when backgrounded or terminated', () => {
    const phone = open();
    tapElement(phone, field(phone));
    phone.typeText('First\n');
    phone.typeText('Second\n');
    phone.goHome();
    phone.launchApp('com.apple.MobileSMS');
    expect(bubbles(phone).slice(-2)).toEqual(['First', 'Second']);
    phone.terminateApp('com.apple.MobileSMS');
    phone.launchApp('com.apple.MobileSMS');
    expect(bubbles(phone).slice(-2)).toEqual(['First', 'Second']);
    expect(findElement(phone, (e) => e.type === 'Keyboard')).toBeUndefined();
  });
});

describe('element uids', () => {
  it('are unique on every screen', () => {
    const phone = createPhone();
    const screens: (() => void)[] = [
      () => phone.goHome(),
      () => phone.launchApp('com.apple.Preferences'),
      () => phone.launchApp('com.apple.mobilenotes'),
      () => tapElement(phone, element(phone, (e) => e.type === 'TextView')),
      () => phone.launchApp('com.apple.mobilesafari'),
      () => phone.launchApp('com.apple.mobileslideshow'),
      () => phone.launchApp('com.apple.Maps'),
      () => phone.launchApp('com.apple.MobileSMS'),
      () => phone.launchApp('com.apple.mobiletimer'),
      () => phone.lock(),
    ];
    for (const show of screens) {
      show();
      const uids = allElements(phone.snapshot()).map((e) => e.uid);
      expect(uids.length - new Set(uids).size).toBe(0);
    }
  });
});

describe('Reminders', () => {
  it('marks a reminder done by its circle or its row, in value, trait, pixels and the summary', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.reminders');
    const before = phone.renderPng();
    const check = () => element(phone, (e) => e.identifier === 'reminder-check-0');
    expect(check()).toMatchObject({ label: 'Not completed', value: '0', selected: false });
    tapElement(phone, check());
    expect(check()).toMatchObject({ label: 'Completed', value: '1', traits: ['Button', 'Selected'] });
    expect(element(phone, byLabel('Buy milk', 'Cell')).selected).toBe(true);
    expect(findElement(phone, byLabel('4 remaining'))).toBeDefined();
    expect(phone.renderPng().equals(before)).toBe(false);
    tapElement(phone, element(phone, byLabel('Call the dentist', 'Cell')));
    expect(findElement(phone, byLabel('3 remaining'))).toBeDefined();
    phone.terminateApp('com.apple.reminders');
    phone.launchApp('com.apple.reminders');
    expect(check().value).toBe('1');
  });
});

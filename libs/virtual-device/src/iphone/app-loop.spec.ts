import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPhone, PhoneError, type Phone } from './index';
import { allElements, byLabel, element, findElement, tapElement } from '../testing';
import { MAPS_BUNDLE_ID } from './apps/maps';

/** The sample app of examples/apps, as install_app reads it: identity from Info.plist, screens as JSON. */
const SAMPLE_DIR = path.resolve(__dirname, '../../../../examples/apps/WhereAmI.app');
const SAMPLE = { bundleId: 'dev.apex.WhereAmI', name: 'Where Am I', version: '1.0', screens: JSON.parse(readFileSync(path.join(SAMPLE_DIR, 'apex-screens.json'), 'utf8')) as unknown };

const texts = (phone: Phone) => allElements(phone.snapshot()).map((e) => e.label ?? '');
const positionText = (phone: Phone) => element(phone, (e) => e.identifier === 'position').label;

function kindOf(call: () => void): string {
  try {
    call();
    return 'ok';
  } catch (error) {
    return error instanceof PhoneError ? error.kind : String(error);
  }
}

describe("the developer's loop on the virtual iPhone (in process)", () => {
  let phone: Phone;
  beforeEach(() => {
    phone = createPhone();
    phone.installApp(SAMPLE);
  });

  it('puts an installed build on the home screen under its name; launching it opens its screens', () => {
    expect(phone.installedApps()).toContainEqual({ bundleId: 'dev.apex.WhereAmI', name: 'Where Am I' });
    phone.drag(300, 400, 50, 400, 0.1);
    tapElement(phone, element(phone, byLabel('Where Am I'), 'the icon'));
    expect(phone.activeApp().bundleId).toBe('dev.apex.WhereAmI');
    expect(texts(phone)).toContain('Your position');
    expect(phone.installApp(SAMPLE)).toEqual({ replaced: true });
  });

  it('asks for location on first launch; the answer is kept, and the position shows once set', () => {
    phone.launchApp('dev.apex.WhereAmI');
    expect(phone.alert()?.text).toContain('Allow \u201cWhere Am I\u201d to use your location?');
    phone.acceptAlert('Allow While Using App');
    expect(phone.permission('dev.apex.WhereAmI', 'location')).toBe('granted');
    expect(positionText(phone)).toBe('Location unavailable');
    phone.setLocation({ latitude: 48.858370, longitude: 2.294481 });
    expect(positionText(phone)).toBe('48.85837, 2.29448');
    phone.terminateApp('dev.apex.WhereAmI');
    phone.launchApp('dev.apex.WhereAmI');
    expect(phone.alert()).toBeNull();
  });

  it('set_permission decides whether the alert appears; reset forgets answers and state', () => {
    phone.setPermission('dev.apex.WhereAmI', 'location', 'denied');
    phone.launchApp('dev.apex.WhereAmI');
    expect(phone.alert()).toBeNull();
    expect(positionText(phone)).toBe('Location access denied');
    phone.resetApp('dev.apex.WhereAmI');
    expect(phone.appState('dev.apex.WhereAmI')).toBe(1);
    phone.launchApp('dev.apex.WhereAmI');
    expect(phone.alert()).not.toBeNull();
    phone.setPermission('dev.apex.WhereAmI', 'location', 'unset');
    expect(phone.permission('dev.apex.WhereAmI', 'location')).toBe('unset');
  });

  it('launch arguments reach a new process, and the app shows them', () => {
    phone.setPermission('dev.apex.WhereAmI', 'location', 'granted');
    phone.launchApp('dev.apex.WhereAmI');
    const pid = phone.activeApp().pid;
    phone.launchApp('dev.apex.WhereAmI', { arguments: ['-AppleLanguages', '(fr)'], environment: { MODE: 'demo' } });
    expect(phone.activeApp().pid).not.toBe(pid);
    expect(phone.launchInfo('dev.apex.WhereAmI')).toEqual({ arguments: ['-AppleLanguages', '(fr)'], environment: { MODE: 'demo' } });
    expect(element(phone, (e) => e.identifier === 'arguments').label).toBe('Launched with: -AppleLanguages (fr)');
  });

  it('backgrounds the app in front (state 3) and brings it back', () => {
    phone.setPermission('dev.apex.WhereAmI', 'location', 'granted');
    phone.launchApp('dev.apex.WhereAmI');
    expect(phone.deactivateApp()).toBe('dev.apex.WhereAmI');
    expect(phone.appState('dev.apex.WhereAmI')).toBe(3);
    expect(phone.activeApp().bundleId).toBe('com.apple.springboard');
  });

  it('a push shows a banner; tapping it opens the app, which shows the notification', () => {
    phone.setPermission('dev.apex.WhereAmI', 'location', 'granted');
    phone.pushNotification({ bundleId: 'dev.apex.WhereAmI', title: 'Arrived', body: 'You are at the Eiffel Tower' });
    const banner = element(phone, (e) => e.identifier === 'NotificationShortLookView', 'the banner');
    expect(texts(phone)).toContain('Arrived');
    tapElement(phone, banner);
    expect(phone.activeApp().bundleId).toBe('dev.apex.WhereAmI');
    expect(element(phone, (e) => e.identifier === 'notification').label).toBe('Last notification: Arrived');
    expect(findElement(phone, (e) => e.identifier === 'NotificationShortLookView')).toBeUndefined();
  });

  it('a tap elsewhere sends the banner away', () => {
    phone.pushNotification({ bundleId: 'dev.apex.WhereAmI', title: 'Hello', body: 'There' });
    phone.tap(200, 700);
    expect(findElement(phone, (e) => e.identifier === 'NotificationShortLookView')).toBeUndefined();
  });

  it('a Face ID match unlocks the sign-in screen only with a face enrolled; a failed match says so', () => {
    phone.setPermission('dev.apex.WhereAmI', 'location', 'granted');
    phone.launchApp('dev.apex.WhereAmI');
    tapElement(phone, element(phone, byLabel('Account')));
    tapElement(phone, element(phone, byLabel('Sign in with Face ID')));
    expect(texts(phone)).toContain('Face ID is not set up on this iPhone.');
    phone.biometric('enroll');
    tapElement(phone, element(phone, byLabel('Sign in with Face ID')));
    expect(findElement(phone, byLabel('Face ID'))).toBeDefined();
    phone.biometric('fail');
    expect(texts(phone)).toContain('Face ID did not match. Try again.');
    tapElement(phone, element(phone, byLabel('Sign in with Face ID')));
    phone.biometric('match');
    expect(texts(phone)).toContain('Signed in');
  });

  it('add_media adds a photo that Photos shows first', () => {
    phone.addMedia('photo');
    phone.addMedia('video');
    phone.launchApp('com.apple.mobileslideshow');
    expect(findElement(phone, byLabel('Photo 13'))).toBeDefined();
    expect(findElement(phone, byLabel('Video 14'))).toBeDefined();
  });

  it('Maps follows the permission and the simulated position', () => {
    phone.setPermission(MAPS_BUNDLE_ID, 'location', 'granted');
    phone.setLocation({ latitude: 37.3349, longitude: -122.009 });
    phone.launchApp(MAPS_BUNDLE_ID);
    expect(phone.alert()).toBeNull();
    expect(texts(phone)).toContain('Current Location: 37.33490, -122.00900');
    phone.setLocation(null);
    expect(texts(phone).some((t) => t.startsWith('Current Location:'))).toBe(false);
  });

  it('uninstalls: the icon and the app are gone; system apps and unknown ids are refused', () => {
    phone.uninstallApp('dev.apex.WhereAmI');
    expect(phone.installedApps().some((a) => a.bundleId === 'dev.apex.WhereAmI')).toBe(false);
    expect(phone.appState('dev.apex.WhereAmI')).toBe(0);
    expect(kindOf(() => phone.uninstallApp('dev.apex.WhereAmI'))).toBe('app_not_installed');
    expect(kindOf(() => phone.uninstallApp('com.apple.Maps'))).toBe('system_app');
    expect(kindOf(() => phone.installApp({ ...SAMPLE, screens: { screens: { a: { title: 'A', elements: [{ button: 'x', goto: 'nowhere' }] } } } }))).toBe('invalid_argument');
  });
});

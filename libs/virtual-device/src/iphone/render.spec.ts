import { createPhone, PROFILES, VirtualPhone } from './index';
import { eventually } from '@apex/testing';
import { decode, pngSize } from '../testing';

// Rendering and decoding full-resolution screenshots is slow on a busy 2-core machine.
jest.setTimeout(60_000);

describe('phone rendering', () => {
  it.each(Object.values(PROFILES))('renders $id at points × scale', (profile) => {
    const phone = createPhone({ profile: profile.id });
    expect(phone.profile).toEqual(profile);
    expect(pngSize(phone.renderPng())).toEqual({ width: profile.width * profile.scale, height: profile.height * profile.scale });
  });

  it('defaults to the iPhone 15 profile (1179×2556 screenshots)', () => {
    const phone = createPhone();
    expect(phone.profile.id).toBe('iphone-15');
    expect(phone.screenSize()).toEqual({ width: 393, height: 852 });
    expect(pngSize(phone.renderPng())).toEqual({ width: 1179, height: 2556 });
  });

  it('rejects unknown options with clear errors', () => {
    expect(() => createPhone({ profile: 'nokia-3310' })).toThrow(/unknown phone profile "nokia-3310".*iphone-15/);
    expect(() => createPhone({ profile: 'constructor' })).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
    expect(() => createPhone({ appearance: 'sepia' as 'dark' })).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
    expect(() => createPhone({ deviceName: ' ' })).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
  });

  it('draws the same bytes for the same state, on two phones', () => {
    const a = createPhone();
    const b = createPhone();
    for (const p of [a, b]) {
      p.launchApp('com.apple.Preferences');
      p.drag(200, 700, 200, 400, 0.2);
    }
    expect(a.renderPng().equals(b.renderPng())).toBe(true);
  });

  it('returns the cached PNG while the state is unchanged, and redraws after a change', () => {
    const phone = createPhone();
    const first = phone.renderPng();
    expect(phone.renderPng()).toBe(first);
    phone.launchApp('com.apple.Preferences');
    const settings = phone.renderPng();
    expect(settings.equals(first)).toBe(false);
    phone.goHome();
    expect(phone.renderPng().equals(first)).toBe(true);
  });

  it('draws dark appearance with dark backgrounds, and setAppearance switches', async () => {
    const phone = createPhone({ appearance: 'dark' });
    expect(phone.appearance()).toBe('dark');
    phone.launchApp('com.apple.Preferences');
    const dark = await decode(phone.renderPng(), 3);
    phone.setAppearance('light');
    const light = await decode(phone.renderPng(), 3);
    // A point of background beside the large title.
    expect(dark.at(300, 80).slice(0, 3).every((c) => c < 40)).toBe(true);
    expect(light.at(300, 80).slice(0, 3).every((c) => c > 220)).toBe(true);
  });

  it('swaps the screen size in landscape', () => {
    const phone = createPhone();
    phone.launchApp('com.apple.Preferences');
    phone.setOrientation('LANDSCAPE');
    expect(phone.orientation()).toBe('LANDSCAPE');
    expect(phone.screenSize()).toEqual({ width: 852, height: 393 });
    expect(pngSize(phone.renderPng())).toEqual({ width: 2556, height: 1179 });
    expect(phone.snapshot().rect).toEqual({ x: 0, y: 0, width: 852, height: 393 });
    expect(() => phone.setOrientation('UPSIDE' as 'PORTRAIT')).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
  });

  it('bumps the version on every change', () => {
    const phone = createPhone();
    const v0 = phone.version;
    phone.lock();
    expect(phone.version).toBeGreaterThan(v0);
  });
});

describe('prerendering (opt-in)', () => {
  it('encodes the changed screen in the background once the phone is idle', async () => {
    const phone = new VirtualPhone({ prerenderAfterMs: 1 });
    phone.launchApp('com.apple.Preferences');
    expect(phone.hasCachedPng()).toBe(false);
    await eventually(() => phone.hasCachedPng(), { timeoutMs: 30_000, what: 'the background render' });
    expect(pngSize(phone.renderPng())).toEqual({ width: 1179, height: 2556 });
    phone.dispose();
  });

  it('does nothing in the background by default: no timer is even scheduled', () => {
    const phone = new VirtualPhone();
    jest.useFakeTimers();
    try {
      // The opted-in phone, for contrast, schedules one.
      const opted = new VirtualPhone({ prerenderAfterMs: 1_000 });
      opted.launchApp('com.apple.Preferences');
      expect(jest.getTimerCount()).toBe(1);
      opted.dispose();

      phone.launchApp('com.apple.Preferences');
      expect(jest.getTimerCount()).toBe(0);
      jest.runAllTimers();
      expect(phone.hasCachedPng()).toBe(false);
    } finally {
      jest.useRealTimers();
    }
    phone.renderPng();
    expect(phone.hasCachedPng()).toBe(true);
  });

  it('rejects a negative delay', () => {
    expect(() => new VirtualPhone({ prerenderAfterMs: -5 })).toThrow(expect.objectContaining({ kind: 'invalid_argument' }));
  });
});

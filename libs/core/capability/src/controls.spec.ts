import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { rejectionOf } from '@apex/errors/testing';
import { runOperation, type OperationContext } from './index';

/** The controls beyond tap and swipe, through the catalog, the hub and a recording driver. */
describe('the control operations', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;
  let ctx: OperationContext;

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'phone', name: 'Phone', driver });
    ctx = { hub, perception: new Perception(hub) };
  });
  afterEach(() => hub.close());

  const argsOf = (method: Parameters<FakeDriver['callsOf']>[0]) => driver.callsOf(method).map((c) => c.args[0]);

  describe('gestures', () => {
    it('long_press holds the point, 800 ms unless told', async () => {
      expect((await runOperation(ctx, 'long_press', { observe: 'none', x: 100, y: 200 })).output).toEqual({ pressed: { x: 100, y: 200 }, durationMs: 800 });
      await runOperation(ctx, 'long_press', { x: 1, y: 2, durationMs: 2_000 });
      expect(argsOf('longPress')).toEqual([
        { point: { x: 100, y: 200 }, durationMs: 800 },
        { point: { x: 1, y: 2 }, durationMs: 2_000 },
      ]);
    });

    it.each([
      [{ x: 10, y: 10, durationMs: 99 }, 'durationMs'],
      [{ x: 10, y: 10, durationMs: 10_001 }, 'durationMs'],
      [{ x: 10, y: 10, durationMs: 500.5 }, 'durationMs'],
      [{ x: 391, y: 10 }, 'x'],
    ])('long_press refuses %o before the device', async (args, field) => {
      const error = await rejectionOf(runOperation(ctx, 'long_press', args));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues?.map((i) => i.path)).toContain(field);
      expect(driver.callsOf('longPress')).toEqual([]);
    });

    it('double_tap taps the point twice in one driver call, on screen only', async () => {
      expect((await runOperation(ctx, 'double_tap', { observe: 'none', x: 195, y: 400 })).output).toEqual({ doubleTapped: { x: 195, y: 400 } });
      expect(argsOf('doubleTap')).toEqual([{ x: 195, y: 400 }]);
      expect((await rejectionOf(runOperation(ctx, 'double_tap', { x: 10, y: 900 }))).code).toBe('invalid_argument');
      expect(driver.callsOf('doubleTap')).toHaveLength(1);
    });

    it('swipe passes holdMs for drag and drop, and only when asked', async () => {
      await runOperation(ctx, 'swipe', { from: { x: 10, y: 100 }, to: { x: 10, y: 300 }, holdMs: 600 });
      await runOperation(ctx, 'swipe', { from: { x: 10, y: 100 }, to: { x: 10, y: 300 } });
      expect(argsOf('swipe')).toEqual([
        { from: { x: 10, y: 100 }, to: { x: 10, y: 300 }, durationMs: 300, holdMs: 600 },
        { from: { x: 10, y: 100 }, to: { x: 10, y: 300 }, durationMs: 300 },
      ]);
      expect((await rejectionOf(runOperation(ctx, 'swipe', { direction: 'up', holdMs: 5_001 }))).issues?.[0]?.path).toBe('holdMs');
    });

    it('pinch defaults to the screen centre and checks a given centre against the screen', async () => {
      expect((await runOperation(ctx, 'pinch', { observe: 'none', scale: 2 })).output).toEqual({ center: { x: 195, y: 422 }, scale: 2 });
      await runOperation(ctx, 'pinch', { scale: 0.5, center: { x: 50, y: 60 }, durationMs: 300 });
      expect(argsOf('pinch')).toEqual([
        { center: { x: 195, y: 422 }, scale: 2, durationMs: 500 },
        { center: { x: 50, y: 60 }, scale: 0.5, durationMs: 300 },
      ]);
      expect((await rejectionOf(runOperation(ctx, 'pinch', { scale: 0.05 }))).issues?.[0]?.path).toBe('scale');
      expect((await rejectionOf(runOperation(ctx, 'pinch', { scale: 11 }))).issues?.[0]?.path).toBe('scale');
      expect((await rejectionOf(runOperation(ctx, 'pinch', { scale: 2, center: { x: 400, y: 1 } }))).issues?.[0]?.path).toBe('center.x');
      expect(driver.callsOf('pinch')).toHaveLength(2);
    });
  });

  describe('open_url', () => {
    it.each(['https://apex.example/', 'http://example.com/a?b=c#d', 'maps://?q=Cupertino', 'prefs:root=General', 'tel:+15551234'])(
      'opens %s',
      async (url) => {
        expect((await runOperation(ctx, 'open_url', { observe: 'none', url })).output).toEqual({ opened: url });
        expect(argsOf('openUrl')).toEqual([url]);
      },
    );

    it.each([
      ['javascript:alert(1)', /javascript: scheme/],
      ['JavaScript:alert(1)', /javascript: scheme/],
      ['data:text/html,<b>x</b>', /data: scheme/],
      ['file:///etc/passwd', /file: scheme/],
      ['example.com', /scheme/],
      ['https://', /valid URL|host/],
      ['https://exa mple.com', /spaces/],
      ['maps:', /after maps:/],
      ['', /empty/],
    ])('refuses %s with invalid_argument naming url', async (url, message) => {
      const error = await rejectionOf(runOperation(ctx, 'open_url', { url }));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues).toEqual([expect.objectContaining({ path: 'url', message: expect.stringMatching(message) })]);
      expect(driver.callsOf('openUrl')).toEqual([]);
    });

    it('refuses a URL longer than 2,048 characters', async () => {
      expect((await rejectionOf(runOperation(ctx, 'open_url', { url: `https://a.example/${'x'.repeat(2_048)}` }))).code).toBe('invalid_argument');
    });
  });

  describe('device settings', () => {
    it('set_orientation answers the rotated screen, and taps then use the rotated frame', async () => {
      expect(await hub.screen('phone')).toEqual({ width: 390, height: 844, scale: 3 });
      expect((await runOperation(ctx, 'set_orientation', { observe: 'none', orientation: 'landscape' })).output).toEqual({
        orientation: 'landscape',
        screen: { width: 844, height: 390 },
      });
      await runOperation(ctx, 'tap', { x: 800, y: 100 });
      expect(argsOf('tap')).toEqual([{ x: 800, y: 100 }]);
      expect((await runOperation(ctx, 'set_orientation', { observe: 'none', orientation: 'portrait' })).output).toMatchObject({ screen: { width: 390, height: 844 } });
      expect((await rejectionOf(runOperation(ctx, 'set_orientation', { orientation: 'upside-down' }))).issues?.[0]?.path).toBe('orientation');
    });

    it('set_clipboard then get_clipboard round-trips the text', async () => {
      expect((await runOperation(ctx, 'get_clipboard', {})).output).toEqual({ text: '' });
      expect((await runOperation(ctx, 'set_clipboard', { text: 'héllo 🙂' })).output).toEqual({ characters: 7 });
      expect((await runOperation(ctx, 'get_clipboard', {})).output).toEqual({ text: 'héllo 🙂' });
      expect((await rejectionOf(runOperation(ctx, 'set_clipboard', { text: 'a'.repeat(10_001) }))).issues?.[0]?.path).toBe('text');
    });

    it('set_lock, hide_keyboard and set_appearance reach the driver', async () => {
      expect((await runOperation(ctx, 'set_lock', { observe: 'none', locked: true })).output).toEqual({ locked: true });
      expect(driver.locked).toBe(true);
      await runOperation(ctx, 'set_lock', { observe: 'none', locked: false });
      expect(driver.locked).toBe(false);
      expect((await runOperation(ctx, 'hide_keyboard', { observe: 'none' })).output).toEqual({ keyboardHidden: true });
      expect((await runOperation(ctx, 'set_appearance', { observe: 'none', appearance: 'dark' })).output).toEqual({ appearance: 'dark' });
      expect(driver.appearance).toBe('dark');
      expect(driver.calls.map((c) => c.method)).toEqual(['setLocked', 'setLocked', 'hideKeyboard', 'setAppearance']);
      expect((await rejectionOf(runOperation(ctx, 'set_lock', { locked: 'yes' }))).issues?.[0]?.path).toBe('locked');
      expect((await rejectionOf(runOperation(ctx, 'set_appearance', { appearance: 'sepia' }))).issues?.[0]?.path).toBe('appearance');
    });
  });

  describe('handle_alert', () => {
    const permission = { title: 'Allow “Photos” to access your photos?', buttons: ["Don't Allow", 'Allow Full Access'] };

    it('answers the alert and returns what it showed', async () => {
      driver.shownAlert = permission;
      expect((await runOperation(ctx, 'handle_alert', { observe: 'none', action: 'press', button: 'Allow Full Access' })).output).toEqual(permission);
      expect(argsOf('handleAlert')).toEqual([{ kind: 'press', button: 'Allow Full Access' }]);
      driver.shownAlert = permission;
      expect((await runOperation(ctx, 'handle_alert', { observe: 'none', action: 'dismiss' })).output).toEqual(permission);
    });

    it('no alert is element_not_found', async () => {
      const error = await rejectionOf(runOperation(ctx, 'handle_alert', { action: 'accept' }));
      expect(error.code).toBe('element_not_found');
      expect(error.message).toMatch(/No alert.*phone/);
      expect(driver.callsOf('handleAlert')).toEqual([]);
    });

    it('a button the alert lacks is element_not_found listing its buttons, before the alert is touched', async () => {
      driver.shownAlert = permission;
      const error = await rejectionOf(runOperation(ctx, 'handle_alert', { action: 'press', button: 'OK' }));
      expect(error.code).toBe('element_not_found');
      expect(error.hint).toMatch(/Don't Allow.*Allow Full Access/);
      expect(driver.callsOf('handleAlert')).toEqual([]);
    });

    it.each([
      [{ action: 'press' }, 'button'],
      [{ action: 'accept', button: 'OK' }, 'button'],
      [{ action: 'click' }, 'action'],
    ])('refuses %o', async (args, field) => {
      driver.shownAlert = permission;
      const error = await rejectionOf(runOperation(ctx, 'handle_alert', args));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues?.[0]?.path).toBe(field);
      expect(driver.callsOf('alert')).toEqual([]);
    });
  });

  describe('launch_app by name', () => {
    it('finds Apple system apps by name when the device lists only running apps', async () => {
      expect((await runOperation(ctx, 'launch_app', { observe: 'none', name: 'settings' })).output).toEqual({ appId: 'com.apple.Preferences', launched: true });
      await runOperation(ctx, 'launch_app', { name: 'App Store' });
      expect(argsOf('launchApp')).toEqual(['com.apple.Preferences', 'com.apple.AppStore']);
    });

    it('uses a complete installed list only, names the closest on a miss', async () => {
      driver.listApps = async () => ({
        apps: [
          { appId: 'com.example.notes', name: 'Notes' },
          { appId: 'com.example.notebook', name: 'Notebook' },
          { appId: 'com.example.maps', name: 'Maps' },
        ],
        complete: true,
      });
      expect((await runOperation(ctx, 'launch_app', { observe: 'none', name: 'Notes' })).output).toMatchObject({ appId: 'com.example.notes' });
      const missing = await rejectionOf(runOperation(ctx, 'launch_app', { name: 'Settings' }));
      expect(missing.code).toBe('app_not_found');
      const typo = await rejectionOf(runOperation(ctx, 'launch_app', { name: 'Note' }));
      expect(typo.code).toBe('app_not_found');
      expect(typo.hint).toMatch(/^Closest names: Notes, Notebook/);
      expect(argsOf('launchApp')).toEqual(['com.example.notes']);
    });

    it('a misspelt system app name hints at the right one', async () => {
      const error = await rejectionOf(runOperation(ctx, 'launch_app', { name: 'Setings' }));
      expect(error.code).toBe('app_not_found');
      expect(error.hint).toMatch(/Settings/);
      expect(driver.callsOf('launchApp')).toEqual([]);
    });

    it('an Android device without a list has no table to fall back on', async () => {
      const android = new FakeDriver({ platform: 'android', without: ['listApps'] });
      hub.register({ id: 'android', driver: android });
      expect((await rejectionOf(runOperation(ctx, 'launch_app', { device: 'android', name: 'Settings' }))).code).toBe('app_not_found');
    });

    it.each([
      [{}, 'appId'],
      [{ appId: 'com.apple.Preferences', name: 'Settings' }, 'name'],
      [{ name: '   ' }, 'name'],
    ])('wants exactly one of appId and name: %o', async (args, field) => {
      const error = await rejectionOf(runOperation(ctx, 'launch_app', args));
      expect(error.code).toBe('invalid_argument');
      expect(error.issues?.[0]?.path).toBe(field);
      expect(driver.calls).toEqual([]);
    });
  });

  it.each([
    ['long_press', { x: 1, y: 1 }, 'longPress'],
    ['double_tap', { x: 1, y: 1 }, 'doubleTap'],
    ['pinch', { scale: 2 }, 'pinch'],
    ['open_url', { url: 'https://apex.example/' }, 'openUrl'],
    ['set_orientation', { orientation: 'landscape' }, 'setOrientation'],
    ['get_clipboard', {}, 'getClipboard'],
    ['set_clipboard', { text: 'a' }, 'setClipboard'],
    ['set_lock', { locked: true }, 'setLocked'],
    ['hide_keyboard', {}, 'hideKeyboard'],
    ['handle_alert', { action: 'accept' }, 'alert'],
    ['set_appearance', { appearance: 'dark' }, 'setAppearance'],
    ['list_apps', {}, 'listApps'],
  ] as const)('%s on a driver without the ability is unsupported_operation naming the device', async (name, args, ability) => {
    const bare = new FakeDriver({ without: [ability] });
    hub.register({ id: 'bare-phone', driver: bare });
    const error = await rejectionOf(runOperation(ctx, name, { device: 'bare-phone', ...args }));
    expect(error.code).toBe('unsupported_operation');
    expect(error.message).toMatch(/^Device bare-phone cannot /);
    expect(bare.calls.filter((c) => c.method !== 'screen')).toEqual([]);
  });
});

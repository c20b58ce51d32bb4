import { ApexError } from '@apex/errors';
import { type AlertInfo, centerOf, type DeviceDriver, ROLES, type UiNode } from '@apex/port';
import { DeviceHub } from '../hub/device-hub';
import {
  APPLE_SYSTEM_APPS,
  captureScreen,
  deviceStatus,
  doubleTap,
  foregroundApp,
  getClipboard,
  getUiTree,
  handleAlert,
  hideKeyboard,
  inputText,
  launchApp,
  launchAppNamed,
  listApps,
  longPress,
  openUrl,
  pinch,
  pressButton,
  setAppearance,
  setClipboard,
  setLocked,
  setOrientation,
  swipe,
  tap,
  terminateApp,
} from '../primitives';
import { resolveRef, treeRefs } from '../refs';

/** What a driver under contract test runs against (for example a driver built over a virtual iPhone). */
export interface DriverContractFixture {
  driver: DeviceDriver;
  /** An installed app that can be launched. */
  appId: string;
  /** An installed app whose first screen shows a text input (text field or search field). */
  textInputAppId: string;
  /** An installed app whose first launch shows a system alert (a permission prompt) with two buttons or more. */
  alertAppId: string;
  /**
   * An installed app whose first screen shows a text input with a keyboard that can be hidden (an iPhone
   * keyboard hides only through a key or button it shows, such as Done; a URL field's Go key submits).
   */
  keyboardAppId: string;
  /** A web address the device can open (it may show an offline error page). */
  webUrl: string;
  /**
   * Abilities the platform cannot offer, which the driver must refuse with `unsupported_operation` naming the
   * device and the reason (Android over its debugging shell: pinch, the clipboard). Default: none.
   */
  unsupported?: readonly RefusableAbility[];
  /**
   * Whether the soft keyboard is up, where the tree does not show it (Android's accessibility dump covers the
   * app's window, not the keyboard's): read from the device itself. Default: a `keyboard` node in the tree.
   */
  keyboardShown?(): Promise<boolean> | boolean;
  /** Stops whatever setup started. */
  close(): Promise<void>;
}

/** The abilities a platform may lack (and must then refuse by name). */
export type RefusableAbility = 'pinch' | 'getClipboard' | 'setClipboard';

function flatten(node: UiNode): UiNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ApexError ? error.code : `not an ApexError: ${String(error)}`;
  }
}

const TEXT_INPUT_ROLES = new Set(['textField', 'searchField']);

function firstTextInput(root: UiNode): UiNode | undefined {
  return flatten(root).find((n) => TEXT_INPUT_ROLES.has(n.role) && n.visible && n.enabled);
}

function hasKeyboard(root: UiNode): boolean {
  return flatten(root).some((n) => n.role === 'keyboard' && n.visible);
}

/**
 * The behaviour every driver must show through the hub and the primitives, in neutral terms. Each driver
 * runs it against a device it can reach here (driver-wda: the virtual iPhone over HTTP).
 */
export function describeDriverContract(name: string, setup: () => Promise<DriverContractFixture>): void {
  describe(`driver contract: ${name}`, () => {
    let fixture: DriverContractFixture;
    let hub: DeviceHub;
    const id = 'contract-device';

    beforeAll(async () => {
      fixture = await setup();
      hub = new DeviceHub({ backgroundProbes: false });
      hub.register({ id, name: 'Contract device', driver: fixture.driver });
    });

    afterAll(async () => {
      await hub?.close();
      await fixture?.close();
    });

    it('reports its status with the screen in points', async () => {
      const status = await deviceStatus(hub, id);
      expect(status).toMatchObject({ id, state: 'online', platform: fixture.driver.platform });
      expect(status.screen.width).toBeGreaterThan(0);
      expect(status.screen.height).toBeGreaterThan(0);
      expect(status.screen.scale).toBeGreaterThanOrEqual(1);
    });

    it('reads the screen geometry cheaply, the same as its status reports', async () => {
      hub.invalidateScreen(id);
      const screen = await hub.screen(id);
      expect(screen).toEqual((await deviceStatus(hub, id)).screen);
    });

    it('ends a call when its signal aborts, with device_timeout, and serves the next call', async () => {
      const controller = new AbortController();
      const pending = codeOf(fixture.driver.uiTree(controller.signal));
      controller.abort();
      expect(await pending).toBe('device_timeout');
      expect(await codeOf(fixture.driver.screen(AbortSignal.abort()))).toBe('device_timeout');
      expect((await getUiTree(hub, id)).role).toBe('app');
    });

    it('captures the screen as a native PNG whose size and scale give the screen in points', async () => {
      const screen = await hub.screen(id);
      const shot = await captureScreen(hub, id);
      expect(shot.png.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      expect(Math.abs(shot.width - screen.width * screen.scale)).toBeLessThanOrEqual(screen.scale);
      expect(shot.scale).toBeCloseTo(screen.scale, 1);
      expect(Math.abs(shot.screen.width - screen.width)).toBeLessThanOrEqual(1);
    });

    it('describes the screen as a neutral tree with unique ids', async () => {
      const root = await getUiTree(hub, id);
      expect(root.role).toBe('app');
      const nodes = flatten(root);
      expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
      for (const node of nodes) expect(ROLES).toContain(node.role);
      expect(JSON.stringify(root)).not.toMatch(/XCUIElement|WebDriverAgent|appium/i);
    });

    it('launches an app, lists it, and terminates it', async () => {
      await launchApp(hub, id, fixture.appId);
      expect((await deviceStatus(hub, id)).foregroundApp?.appId).toBe(fixture.appId);
      if (hub.supports(id, 'listApps')) {
        expect((await listApps(hub, id)).apps.map((a) => a.appId)).toContain(fixture.appId);
      }
      expect(await terminateApp(hub, id, fixture.appId)).toBe(true);
      expect(await terminateApp(hub, id, fixture.appId)).toBe(false);
    });

    it('names the app in front with its cheap read as its status does (both before and after a launch)', async () => {
      for (const appId of [undefined, fixture.appId]) {
        if (appId) await launchApp(hub, id, appId);
        const front = await foregroundApp(hub, id);
        expect(front).toEqual((await deviceStatus(hub, id)).foregroundApp);
        if (appId) expect(front?.appId).toBe(appId);
      }
    });

    it('answers app_not_found for an app that is not installed', async () => {
      expect(await codeOf(launchApp(hub, id, 'com.example.not.installed.anywhere'))).toBe('app_not_found');
    });

    it('goes home with the home button', async () => {
      await launchApp(hub, id, fixture.appId);
      await pressButton(hub, id, 'home');
      expect((await deviceStatus(hub, id)).foregroundApp?.appId).not.toBe(fixture.appId);
    });

    it('taps and swipes in points, and rejects off-screen points before the device', async () => {
      const screen = await hub.screen(id);
      await tap(hub, id, { x: screen.width / 2, y: screen.height / 2 });
      await swipe(hub, id, { direction: 'left' });
      await swipe(hub, id, { from: { x: screen.width - 10, y: screen.height / 2 }, to: { x: 10, y: screen.height / 2 }, durationMs: 200 });
      expect(await codeOf(tap(hub, id, { x: screen.width + 50, y: 10 }))).toBe('invalid_argument');
      expect(await codeOf(tap(hub, id, { x: Number.NaN, y: 10 }))).toBe('invalid_argument');
      await pressButton(hub, id, 'home');
    });

    it('types into a focused text input', async () => {
      await launchApp(hub, id, fixture.textInputAppId);
      const input = flatten(await getUiTree(hub, id)).find((n) => TEXT_INPUT_ROLES.has(n.role) && n.visible && n.enabled);
      expect(input).toBeDefined();
      const target = input as UiNode;
      await tap(hub, id, centerOf(target.bounds));
      await inputText(hub, id, { text: 'apex contract' });
      const after = flatten(await getUiTree(hub, id)).find(
        (n) => n.role === target.role && Math.abs(n.bounds.y - target.bounds.y) < 2 && Math.abs(n.bounds.x - target.bounds.x) < 2,
      );
      expect(after?.value ?? '').toContain('apex contract');
      await terminateApp(hub, id, fixture.textInputAppId);
    });

    describe('the controls beyond tap and swipe', () => {
      const abilities = [
        'longPress',
        'doubleTap',
        'pinch',
        'openUrl',
        'setOrientation',
        'getClipboard',
        'setClipboard',
        'setLocked',
        'hideKeyboard',
        'alert',
        'handleAlert',
        'setAppearance',
        'listApps',
      ] as const;

      it('has every control ability of the port', () => {
        expect(abilities.filter((ability) => !hub.supports(id, ability))).toEqual([]);
      });

      const refuses = (ability: RefusableAbility) => fixture.unsupported?.includes(ability) ?? false;

      it('refuses what the platform cannot do, naming the device and the reason', async () => {
        const attempts: Record<RefusableAbility, () => Promise<unknown>> = {
          pinch: () => pinch(hub, id, { scale: 2 }),
          getClipboard: () => getClipboard(hub, id),
          setClipboard: () => setClipboard(hub, id, 'x'),
        };
        for (const ability of fixture.unsupported ?? []) {
          let error: unknown;
          try {
            await attempts[ability]();
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(ApexError);
          expect((error as ApexError).code).toBe('unsupported_operation');
          expect((error as ApexError).message).toMatch(new RegExp(`^Device ${id} .+: .+`));
        }
      });

      it('round-trips the clipboard as plain text', async () => {
        if (refuses('getClipboard') || refuses('setClipboard')) return;
        await setClipboard(hub, id, 'apex contract: héllo 🙂');
        expect(await getClipboard(hub, id)).toBe('apex contract: héllo 🙂');
        await setClipboard(hub, id, '');
        expect(await getClipboard(hub, id)).toBe('');
      });

      it('long-presses a text input: its edit menu offers Paste, which pastes the clipboard', async () => {
        if (refuses('setClipboard')) return;
        await setClipboard(hub, id, 'pasted by contract');
        await launchApp(hub, id, fixture.textInputAppId);
        const input = firstTextInput(await getUiTree(hub, id));
        expect(input).toBeDefined();
        const target = input as UiNode;
        await longPress(hub, id, centerOf(target.bounds), 1_000);
        // The port's calls resolve once the device has acted: the menu is there when longPress resolves.
        const paste = flatten(await getUiTree(hub, id)).find((n) => n.label === 'Paste' && n.visible);
        expect(paste).toBeDefined();
        await tap(hub, id, centerOf((paste as UiNode).bounds));
        expect(firstTextInput(await getUiTree(hub, id))?.value ?? '').toContain('pasted by contract');
        await terminateApp(hub, id, fixture.textInputAppId);
      });

      it('double-taps and pinches in points, and rejects off-screen points before the device', async () => {
        const screen = await hub.screen(id);
        await doubleTap(hub, id, { x: screen.width / 2, y: screen.height / 2 });
        if (!refuses('pinch')) {
          expect(await pinch(hub, id, { scale: 2 })).toEqual({ x: screen.width / 2, y: screen.height / 2 });
          await pinch(hub, id, { scale: 0.5, center: { x: screen.width / 3, y: screen.height / 3 }, durationMs: 300 });
        }
        expect(await codeOf(doubleTap(hub, id, { x: screen.width + 1, y: 10 }))).toBe('invalid_argument');
        expect(await codeOf(pinch(hub, id, { scale: 2, center: { x: 10, y: screen.height + 1 } }))).toBe('invalid_argument');
        expect(await codeOf(longPress(hub, id, { x: -1, y: 10 }))).toBe('invalid_argument');
        expect(hub.summary(id).state).toBe('online');
        await pressButton(hub, id, 'home');
      });

      it('drags with a hold before moving', async () => {
        const screen = await hub.screen(id);
        await swipe(hub, id, { from: { x: screen.width / 2, y: screen.height / 2 }, to: { x: screen.width / 2, y: screen.height / 3 }, holdMs: 600 });
        expect(hub.summary(id).state).toBe('online');
        await pressButton(hub, id, 'home');
      });

      it('opens a web address in an app other than the home screen', async () => {
        await pressButton(hub, id, 'home');
        const home = (await deviceStatus(hub, id)).foregroundApp?.appId;
        await openUrl(hub, id, fixture.webUrl);
        const opened = (await deviceStatus(hub, id)).foregroundApp?.appId;
        expect(opened).toBeDefined();
        expect(opened).not.toBe(home);
        await terminateApp(hub, id, opened as string);
      });

      it('rotates: the screen, its captures and the accepted points follow the orientation', async () => {
        // An app turns; an iPhone's home screen may not.
        await launchApp(hub, id, fixture.appId);
        const portrait = await hub.screen(id);
        await setOrientation(hub, id, 'landscape');
        try {
          const status = await deviceStatus(hub, id);
          expect(status.orientation).toBe('landscape');
          expect(status.screen).toMatchObject({ width: portrait.height, height: portrait.width });
          expect(await hub.screen(id)).toMatchObject({ width: portrait.height, height: portrait.width });
          const shot = await captureScreen(hub, id);
          expect(shot.width).toBeGreaterThan(shot.height);
          await tap(hub, id, { x: portrait.height - 5, y: 5 });
          expect(await codeOf(tap(hub, id, { x: 5, y: portrait.height - 5 }))).toBe('invalid_argument');
        } finally {
          await setOrientation(hub, id, 'portrait');
        }
        expect((await deviceStatus(hub, id)).orientation).toBe('portrait');
        expect(await hub.screen(id)).toEqual(portrait);
        await terminateApp(hub, id, fixture.appId);
      });

      it('locks and unlocks the screen, as its status reports', async () => {
        await setLocked(hub, id, true);
        expect((await deviceStatus(hub, id)).locked).toBe(true);
        await setLocked(hub, id, false);
        expect((await deviceStatus(hub, id)).locked).toBe(false);
      });

      it('hides the keyboard a text input brought up, and is a no-op without one', async () => {
        await launchApp(hub, id, fixture.keyboardAppId);
        const input = firstTextInput(await getUiTree(hub, id));
        expect(input).toBeDefined();
        await tap(hub, id, centerOf((input as UiNode).bounds));
        const keyboardShown = async () => (fixture.keyboardShown ? fixture.keyboardShown() : hasKeyboard(await getUiTree(hub, id)));
        expect(await keyboardShown()).toBe(true);
        await hideKeyboard(hub, id);
        expect(await keyboardShown()).toBe(false);
        await hideKeyboard(hub, id);
        await terminateApp(hub, id, fixture.keyboardAppId);
      });

      it('answers an alert by a button label, and says element_not_found once none is shown', async () => {
        await launchApp(hub, id, fixture.alertAppId);
        const driver = fixture.driver as Required<Pick<DeviceDriver, 'alert'>>;
        const shown = (await driver.alert(AbortSignal.timeout(10_000))) as AlertInfo;
        expect(shown).toBeDefined();
        expect(shown.buttons.length).toBeGreaterThanOrEqual(2);
        expect(await codeOf(handleAlert(hub, id, { kind: 'press', button: 'No Such Button' }))).toBe('element_not_found');
        const answered = await handleAlert(hub, id, { kind: 'press', button: shown.buttons[shown.buttons.length - 1] as string });
        expect(answered).toEqual(shown);
        expect(await driver.alert(AbortSignal.timeout(10_000))).toBeUndefined();
        expect(await codeOf(handleAlert(hub, id, { kind: 'accept' }))).toBe('element_not_found');
        expect(await codeOf(handleAlert(hub, id, { kind: 'dismiss' }))).toBe('element_not_found');
        await terminateApp(hub, id, fixture.alertAppId);
      });

      it('switches to dark and back to light, which changes what the screen shows', async () => {
        await pressButton(hub, id, 'home');
        await setAppearance(hub, id, 'light');
        const light = await captureScreen(hub, id);
        await setAppearance(hub, id, 'dark');
        try {
          const dark = await captureScreen(hub, id);
          expect(dark.png.equals(light.png)).toBe(false);
        } finally {
          await setAppearance(hub, id, 'light');
        }
      });

      it('lists apps saying whether the list is complete, and launches an app by its name', async () => {
        const listed = await listApps(hub, id);
        expect(typeof listed.complete).toBe('boolean');
        const name =
          listed.apps.find((a) => a.appId === fixture.appId)?.name ??
          Object.entries(APPLE_SYSTEM_APPS).find(([, appId]) => appId === fixture.appId)?.[0];
        expect(name).toBeDefined();
        expect(await launchAppNamed(hub, id, (name as string).toUpperCase())).toBe(fixture.appId);
        expect((await deviceStatus(hub, id)).foregroundApp?.appId).toBe(fixture.appId);
        expect(await codeOf(launchAppNamed(hub, id, 'No App Has This Name'))).toBe('app_not_found');
        await terminateApp(hub, id, fixture.appId);
      });
    });

    describe('element refs and what an action changed', () => {
      const labeledCells = (root: UiNode) => flatten(root).filter((n) => n.role === 'cell' && n.visible && n.label && n.bounds.y > 0);

      it('keeps a ref for an element whose list scrolled, resolves it to its current centre, and refuses it once gone', async () => {
        await launchApp(hub, id, fixture.appId);
        const screen = await hub.screen(id);
        const before = await getUiTree(hub, id);
        const cell = labeledCells(before).find((n) => n.bounds.y > screen.height / 4 && n.bounds.y < screen.height / 2);
        expect(cell).toBeDefined();
        if (!cell) return;
        const ref = treeRefs(hub, id, before).refOf(cell) as string;
        expect(ref).toMatch(/^e\d+$/);
        await swipe(hub, id, { from: { x: screen.width / 2, y: screen.height * 0.7 }, to: { x: screen.width / 2, y: screen.height * 0.6 } });
        const after = await getUiTree(hub, id);
        const moved = flatten(after).find((n) => treeRefs(hub, id, after).refOf(n) === ref);
        expect(moved?.label).toBe(cell.label);
        const resolved = await resolveRef(hub, id, ref);
        expect(resolved.center.y).toBeCloseTo((moved as UiNode).bounds.y + (moved as UiNode).bounds.height / 2, 0);
        await pressButton(hub, id, 'home');
        expect(await codeOf(resolveRef(hub, id, ref))).toBe('element_not_found');
        await terminateApp(hub, id, fixture.appId);
      });

      it('reads the same screen the same way twice, and a different one after an action changed it', async () => {
        await pressButton(hub, id, 'home');
        const home = treeRefs(hub, id, await getUiTree(hub, id)).fingerprint;
        expect(treeRefs(hub, id, await getUiTree(hub, id)).fingerprint).toBe(home);
        await launchApp(hub, id, fixture.appId);
        expect(treeRefs(hub, id, await getUiTree(hub, id)).fingerprint).not.toBe(home);
        await terminateApp(hub, id, fixture.appId);
      });
    });

    it('runs many concurrent actions on one device without losing any', async () => {
      const screen = await hub.screen(id);
      const taps = Array.from({ length: 20 }, (_, i) => tap(hub, id, { x: 5 + i, y: screen.height - 5 }));
      await Promise.all(taps);
      expect(hub.summary(id).state).toBe('online');
    });
  });
}

import { ApexError } from '@apex/errors';
import { centerOf, type DeviceDriver, ROLES, type UiNode } from '@apex/port';
import { DeviceHub } from '../hub/device-hub';
import {
  captureScreen,
  deviceStatus,
  getUiTree,
  inputText,
  launchApp,
  listApps,
  pressButton,
  swipe,
  tap,
  terminateApp,
} from '../primitives';

/** What a driver under contract test runs against (for example a driver built over a virtual iPhone). */
export interface DriverContractFixture {
  driver: DeviceDriver;
  /** An installed app that can be launched. */
  appId: string;
  /** An installed app whose first screen shows a text input (text field or search field). */
  textInputAppId: string;
  /** Stops whatever setup started. */
  close(): Promise<void>;
}

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

    it('runs many concurrent actions on one device without losing any', async () => {
      const screen = await hub.screen(id);
      const taps = Array.from({ length: 20 }, (_, i) => tap(hub, id, { x: 5 + i, y: screen.height - 5 }));
      await Promise.all(taps);
      expect(hub.summary(id).state).toBe('online');
    });
  });
}

/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { eventually } from '@apex/testing';
import { buildDashboard, launchChromium } from '@apex/testing/browser';
import { createVirtualAndroid, startAdbd, startVirtualIPhone, type Adbd, type VirtualAndroid, type VirtualIPhone } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';
import type { Browser, Page } from 'playwright-core';
import { call } from '../rest/harness';
import { flatten, frameDigest, WAIT, type Node } from './page-kit';

jest.setTimeout(180_000);

const IPHONE = 'iphone';
const ANDROID = 'android';
const SETTINGS = 'com.android.settings';
const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher';

/**
 * The dashboard over a server with two phones, as `apex serve --config` builds it: the virtual iPhone (driver
 * over HTTP) and the virtual Android 14 phone reached through a real adb server. Every check of what the page
 * did is read back over REST (device_status, get_ui_tree) or from the phone object itself.
 */
describeWithRealAdb('the dashboard with an iPhone and an Android phone', () => {
  let iphone: VirtualIPhone;
  let android: VirtualAndroid;
  let adbd: Adbd;
  let adb: RealAdbServer;
  let runtime: Runtime;
  let api: RestApiHandle;
  let browser: Browser;
  let page: Page;
  let dataDir: string;
  let dist: string;
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];

  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const status = async (device: string) =>
    (await call(api.url, 'GET', `/devices/${device}`)).body as { platform: string; foregroundApp?: { appId: string }; screen: { width: number; height: number } };
  const foreground = async (device: string) => (await status(device)).foregroundApp?.appId;
  const nodes = async (device: string) => flatten((await call(api.url, 'GET', `/devices/${device}/ui-tree?format=tree`)).body.root as Node);
  const inFront = (appId: string, what: string) => eventually(async () => (await foreground(ANDROID)) === appId, { ...WAIT, what });

  /** A click on the page's screen at a point of the Android phone's screen (in its units, as device_status gives them). */
  async function clickAndroidAt(point: { x: number; y: number }): Promise<void> {
    const screen = page.getByTestId('screen');
    await screen.scrollIntoViewIfNeeded();
    const box = await screen.boundingBox();
    if (!box) throw new Error('the screen is not shown');
    const size = (await status(ANDROID)).screen;
    await page.mouse.click(box.x + (point.x / size.width) * box.width, box.y + (point.y / size.height) * box.height);
  }

  async function clickSettingsIcon(): Promise<void> {
    const icon = (await eventually(async () => (await nodes(ANDROID)).find((n) => n.label === 'Settings'), { ...WAIT, what: 'the Settings icon' })) as Node;
    await clickAndroidAt(icon.center);
  }

  beforeAll(async () => {
    dist = buildDashboard();
    iphone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
    android = createVirtualAndroid();
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
    adb = await startRealAdbServer();
    dataDir = mkdtempSync(join(tmpdir(), 'apex-dash-android-'));
    const configPath = join(dataDir, 'apex.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        devices: [
          { id: IPHONE, name: 'Test iPhone', driver: 'wda', url: iphone.url, mjpegPort: iphone.mjpegPort, shared: true },
          { id: ANDROID, name: 'Test Pixel', driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}`, shared: true },
        ],
      }),
    );
    runtime = await createRuntime({ configPath, dataDir, env: {}, logger: createLogger({ level: 'silent' }) });
    api = await startRestApi(runtime, { port: 0, dashboardDir: dist, logger: createRestLogger({ level: 'silent' }) });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${api.url}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await runtime?.close();
    await adb?.stop();
    await adbd?.close();
    await iphone?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('lists both phones; the iPhone gets Home and the volume buttons but no Back or Recents', async () => {
    const items = page.getByTestId('device-item');
    await eventually(async () => (await items.count()) === 2, { ...WAIT, what: 'both phones listed' });
    expect(await items.evaluateAll((buttons: HTMLElement[]) => buttons.map((b) => b.dataset.device))).toEqual([IPHONE, ANDROID]);
    await eventually(async () => /Android 14/.test(await page.locator(`[data-device="${ANDROID}"]`).innerText()), { ...WAIT, what: 'the Android phone described' });

    await page.locator(`[data-device="${IPHONE}"]`).click();
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
    await button('Home').waitFor();
    await button('Volume up').waitFor();
    expect(await button('Back').count()).toBe(0);
    expect(await button('Recents').count()).toBe(0);
  });

  it("shows the Android phone's live screen; a click on it taps, Back returns and Home goes home", async () => {
    await page.locator(`[data-device="${ANDROID}"]`).click();
    expect(await page.locator(`[data-device="${ANDROID}"]`).getAttribute('aria-pressed')).toBe('true');
    // The Android controls appear once the page has read this phone's status.
    await button('Back').waitFor();
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
    await eventually(async () => ((await page.getByTestId('screen').evaluate((img: HTMLImageElement) => img.naturalWidth)) ?? 0) > 0, { ...WAIT, what: 'a frame shown' });
    expect(await foreground(ANDROID)).toBe(LAUNCHER_PACKAGE);
    const homeFrame = await frameDigest(page);

    // A click on the Settings icon of the live screen is a tap on the phone: Settings opens, the screen follows.
    await clickSettingsIcon();
    await inFront(SETTINGS, 'Settings opened by the click');
    expect(android.phone.focus().pkg).toBe(SETTINGS);
    await eventually(async () => (await frameDigest(page)) !== homeFrame, { ...WAIT, what: 'the live screen showing Settings' });

    // Back leaves Settings: the launcher and its icons are on the screen again.
    await button('Back').click();
    await inFront(LAUNCHER_PACKAGE, 'the launcher after Back');
    await eventually(async () => (await nodes(ANDROID)).some((n) => n.label === 'Settings'), { ...WAIT, what: 'the Settings icon after Back' });

    // Home from inside an app goes to the launcher.
    await clickSettingsIcon();
    await inFront(SETTINGS, 'Settings opened again');
    await button('Home').click();
    await inFront(LAUNCHER_PACKAGE, 'the launcher after Home');
    expect(android.phone.focus().pkg).toBe(LAUNCHER_PACKAGE);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('Recents opens the app switcher; a click on the Settings card brings Settings back', async () => {
    await button('Recents').click();
    await eventually(async () => (await nodes(ANDROID)).some((n) => n.label === 'Clear all'), { ...WAIT, what: 'the app switcher' });
    const card = (await eventually(async () => (await nodes(ANDROID)).find((n) => n.label === 'Settings' && n.role !== 'icon' && n.bounds.width > 100), {
      ...WAIT,
      what: 'the Settings card',
    })) as Node;
    await clickAndroidAt(card.center);
    await inFront(SETTINGS, 'Settings from the app switcher');
    await button('Home').click();
    await inFront(LAUNCHER_PACKAGE, 'the launcher again');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('broke no rule of its Content-Security-Policy and threw no error', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

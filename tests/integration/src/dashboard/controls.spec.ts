/// <reference lib="dom" />
import sharp from 'sharp';
import { eventually } from '@apex/testing';
import type { Page } from 'playwright-core';
import { SETTINGS_BUNDLE_ID, SPRINGBOARD_BUNDLE_ID } from '@apex/virtual-device';
import { DEVICE_PATH } from '../rest/harness';
import { clickOnScreen, deviceStatus, foregroundApp, nodeLabelled, pagePoint, startDashboard, treeNodes, WAIT, type DashboardRig, type Node } from './page-kit';

jest.setTimeout(180_000);

const SETTINGS = SETTINGS_BUNDLE_ID;
const HOME = SPRINGBOARD_BUNDLE_ID;

/**
 * The page's pointer gestures and buttons, each checked on the phone through REST (device_status, get_ui_tree,
 * describe_screen over real HTTP), and errors shown in the server's semantic words.
 */
describe('the dashboard drives the phone: gestures and buttons', () => {
  let rig: DashboardRig;
  let page: Page;
  const describeScreen = async () => (await fetch(`${rig.harness.url}${DEVICE_PATH}/describe`)).json() as Promise<{ alert?: { title?: string }; keyboardVisible: boolean }>;
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  const inFront = (appId: string, what: string) => eventually(async () => (await foregroundApp(rig.harness)) === appId, { ...WAIT, what });
  const banner = () => page.getByRole('alert');

  /** The page's own launch form (POST /launch), as a person types into it. */
  async function launch(app: string): Promise<void> {
    await page.getByLabel('App', { exact: true }).fill(app);
    await button('Launch app').click();
  }

  beforeAll(async () => {
    rig = await startDashboard();
    page = rig.page;
    await page.goto(`${rig.harness.url}/`);
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
  });
  afterAll(async () => rig?.close());

  it('a press held on an app icon is a long press: the icon opens its context menu', async () => {
    const settings = (await eventually(() => nodeLabelled(rig.harness, 'Settings', 'icon'), { ...WAIT, what: 'the Settings icon' })) as Node;
    const at = await pagePoint(page, rig.harness, settings.center);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    // The page measures the hold with its own event times; a real person's hold, not a wall-clock check.
    await page.waitForTimeout(800);
    await page.mouse.up();
    await eventually(async () => (await nodeLabelled(rig.harness, 'Remove App')) !== undefined, { ...WAIT, what: 'the icon context menu' });
    expect(await foregroundApp(rig.harness)).toBe(HOME);
    // A tap outside the menu closes it.
    await clickOnScreen(page, rig.harness, { x: 8, y: 8 });
    await eventually(async () => (await nodeLabelled(rig.harness, 'Remove App')) === undefined, { ...WAIT, what: 'the menu closed' });
  });

  it('launches an app the list_apps answer offers, and the wheel scrolls the Settings list', async () => {
    // The choices are what list_apps answers over REST (on this phone: the apps running when the page opened).
    const listed = ((await (await fetch(`${rig.harness.url}${DEVICE_PATH}/apps`)).json()) as { apps: { appId: string }[] }).apps.map((a) => a.appId);
    expect(listed.length).toBeGreaterThan(0);
    await eventually(async () => (await page.locator('#app-choices option').count()) === listed.length, { ...WAIT, what: 'the app choices from list_apps' });
    expect(await page.locator('#app-choices option').evaluateAll((options: HTMLOptionElement[]) => options.map((o) => o.value))).toEqual(listed);
    await launch('Settings');
    await inFront(SETTINGS, 'Settings in front');
    const general = (await eventually(() => nodeLabelled(rig.harness, 'General'), { ...WAIT, what: 'General in the list' })) as Node;
    const over = await pagePoint(page, rig.harness, { x: 196, y: 500 });
    await page.mouse.move(over.x, over.y);
    await page.mouse.wheel(0, 400);
    await eventually(async () => {
      const now = await nodeLabelled(rig.harness, 'General');
      return now === undefined || now.bounds.y < general.bounds.y - 50;
    }, { ...WAIT, what: 'the list scrolled by the wheel' });
  });

  it('rotates an app that turns, and shows the semantic error and hint when the home screen refuses', async () => {
    // The button turns the way the page last read the device (it reads the state again after each action).
    const rotateTo = (orientation: string) =>
      eventually(async () => (await button('Rotate').getAttribute('data-next-orientation')) === orientation, { ...WAIT, what: `the page to offer ${orientation}` });
    await rotateTo('landscape');
    await button('Rotate').click();
    await eventually(async () => (await deviceStatus(rig.harness)).orientation === 'landscape', { ...WAIT, what: 'landscape (device_status)' });
    // The page reads the new state and offers the way back.
    await eventually(async () => (await deviceStatus(rig.harness)).orientation === 'landscape' && (await page.locator('.screen-meta').innerText()).includes('852×393'), {
      ...WAIT,
      what: 'the page showing the landscape screen',
    });
    await rotateTo('portrait');
    await button('Rotate').click();
    await eventually(async () => (await deviceStatus(rig.harness)).orientation === 'portrait', { ...WAIT, what: 'portrait again' });

    await button('Home').click();
    await inFront(HOME, 'the home screen');
    await rotateTo('landscape');
    await button('Rotate').click();
    await banner().waitFor();
    expect(await banner().getAttribute('data-code')).toBe('device_error');
    expect(await banner().locator('.hint').innerText()).toMatch(/open an app that does/);
    expect(await banner().innerText()).not.toMatch(/WDA|WebDriverAgent|XCUI|Appium|at .*\.ts:\d+/);
    expect((await deviceStatus(rig.harness)).orientation).toBe('portrait');
    await page.getByRole('button', { name: 'Dismiss the error' }).click();
    await banner().waitFor({ state: 'detached' });
  });

  it('locks and unlocks the phone', async () => {
    await button('Lock').click();
    await eventually(async () => (await deviceStatus(rig.harness)).locked === true, { ...WAIT, what: 'locked (device_status)' });
    // The button follows the device's state as the page reads it again.
    await button('Unlock').click();
    await eventually(async () => (await deviceStatus(rig.harness)).locked === false, { ...WAIT, what: 'unlocked' });
    await button('Lock').waitFor();
  });

  it('sends the volume buttons (the server accepts both: the phone shows no volume state to check)', async () => {
    const answers: { body: unknown; status: number }[] = [];
    const listener = async (res: import('playwright-core').Response) => {
      if (res.url().endsWith('/press-button')) answers.push({ body: res.request().postDataJSON(), status: res.status() });
    };
    page.on('response', listener);
    await button('Volume up').click();
    await button('Volume down').click();
    await eventually(() => answers.length === 2, { ...WAIT, what: 'two press_button answers' });
    page.off('response', listener);
    expect(answers).toEqual([
      { body: { button: 'volumeUp' }, status: 200 },
      { body: { button: 'volumeDown' }, status: 200 },
    ]);
    expect(await banner().count()).toBe(0);
  });

  it('switches to dark and back to light (the screenshot over REST darkens, then matches again)', async () => {
    await launch('Settings');
    await inFront(SETTINGS, 'Settings in front');
    const brightness = async () => {
      const res = await fetch(`${rig.harness.url}${DEVICE_PATH}/screenshot`, { method: 'POST', body: '{"format":"png"}', headers: { 'content-type': 'application/json' } });
      const stats = await sharp(Buffer.from(await res.arrayBuffer())).stats();
      return stats.channels[0].mean;
    };
    const light = await brightness();
    await button('Dark').click();
    await eventually(async () => (await brightness()) < light - 60, { ...WAIT, what: 'a dark screen' });
    await button('Light').click();
    await eventually(async () => Math.abs((await brightness()) - light) < 1, { ...WAIT, what: 'the light screen again' });
  });

  it('opens a URL in Safari', async () => {
    await page.getByLabel('URL', { exact: true }).fill('https://example.com/hello');
    await button('Open URL').click();
    await inFront('com.apple.mobilesafari', 'Safari in front');
    await eventually(async () => (await treeNodes(rig.harness)).some((n) => n.value?.includes('example.com')), { ...WAIT, what: 'the address in Safari' });
  });

  it('hides the keyboard of a note being edited', async () => {
    await launch('Notes');
    await inFront('com.apple.mobilenotes', 'Notes in front');
    const body = (await eventually(async () => (await treeNodes(rig.harness)).find((n) => n.role === 'textView' || n.role === 'textField'), { ...WAIT, what: 'the note body' })) as Node;
    await clickOnScreen(page, rig.harness, body.center);
    await eventually(async () => (await describeScreen()).keyboardVisible, { ...WAIT, what: 'the keyboard up' });
    await button('Hide keyboard').click();
    await eventually(async () => !(await describeScreen()).keyboardVisible, { ...WAIT, what: 'the keyboard hidden' });
  });

  it("accepts Maps' location alert, and a dismiss with no alert shows element_not_found", async () => {
    await launch('com.apple.Maps');
    await eventually(async () => /Maps/.test((await describeScreen()).alert?.title ?? ''), { ...WAIT, what: "Maps' location alert" });
    await button('Accept alert').click();
    await eventually(async () => (await describeScreen()).alert === undefined, { ...WAIT, what: 'the alert answered' });
    await button('Dismiss alert').click();
    await banner().waitFor();
    expect(await banner().getAttribute('data-code')).toBe('element_not_found');
    expect((await banner().innerText()).length).toBeGreaterThan(10);
  });

  it('broke no rule of its Content-Security-Policy and threw no error', () => {
    expect(rig.cspViolations).toEqual([]);
    expect(rig.pageErrors).toEqual([]);
  });
});

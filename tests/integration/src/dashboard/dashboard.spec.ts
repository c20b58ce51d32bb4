/// <reference lib="dom" />
// The page-side callbacks of page.evaluate run in the browser and use its DOM types.
import AxeBuilder from '@axe-core/playwright';
import { eventually } from '@apex/testing';
import { buildDashboard, launchChromium } from '@apex/testing/browser';
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { call, DEVICE_PATH, startRestHarness, type RestHarness } from '../rest/harness';
import * as kit from './page-kit';
import { foregroundApp, frameDigest, nodeLabelled, startDashboard, treeNodes, WAIT, type DashboardRig, type Node } from './page-kit';

jest.setTimeout(180_000);

async function frameCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('screen').getAttribute('data-frames'));
}

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

describe('the dashboard in a real browser, on the embedded virtual iPhone', () => {
  let rig: DashboardRig;
  let harness: RestHarness;
  let page: Page;
  const pagePoint = (point: { x: number; y: number }) => kit.pagePoint(page, harness, point);
  const clickOnScreen = (point: { x: number; y: number }) => kit.clickOnScreen(page, harness, point);

  beforeAll(async () => {
    rig = await startDashboard();
    ({ harness, page } = rig);
    await page.goto(`${harness.url}/`);
  });

  afterAll(async () => rig?.close());

  it('lists both embedded phones with their state, model and OS, the iPhone first', async () => {
    const item = page.getByTestId('device-list').getByTestId('device-item');
    await item.first().waitFor();
    expect(await item.count()).toBe(2);
    const iphone = item.nth(0);
    const android = item.nth(1);
    await eventually(async () => /Virtual iPhone/.test(await iphone.innerText()) && /online/.test(await iphone.innerText()) && /iOS 17\.5/.test(await iphone.innerText()), {
      ...WAIT,
      what: 'the iPhone item with name, state and OS',
    });
    await eventually(async () => /Virtual Android/.test(await android.innerText()) && /online/.test(await android.innerText()) && /Android 14/.test(await android.innerText()), {
      ...WAIT,
      what: 'the Android item with name, state and OS',
    });
  });

  it('streams frames, and clicking the Settings icon on the screen opens Settings (the frame changes)', async () => {
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
    const first = await frameCount(page);
    await eventually(async () => (await frameCount(page)) >= first + 3, { ...WAIT, what: 'frames to keep coming' });
    // The server relays the device's stream (GET /devices/{d}/stream), read with fetch and cut into frames.
    expect(await page.locator('.screen-meta').innerText()).toMatch(/^Live stream/);
    const before = await frameDigest(page);

    const settings = await nodeLabelled(harness, 'Settings', 'icon');
    expect(settings).toBeDefined();
    await clickOnScreen(settings!.center);

    await eventually(async () => (await foregroundApp(harness)) === 'com.apple.Preferences', { ...WAIT, what: 'Settings in front (device_status)' });
    await eventually(async () => (await frameDigest(page)) !== before, { ...WAIT, what: 'a frame that shows the change' });
  });

  it('scrolls the Settings list with a drag', async () => {
    const general = (await eventually(() => nodeLabelled(harness, 'General'), { ...WAIT, what: 'General in the Settings list' })) as Node;
    const from = await pagePoint({ x: 196, y: 700 });
    const to = await pagePoint({ x: 196, y: 300 });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
    await eventually(async () => {
      const now = await nodeLabelled(harness, 'General');
      return now === undefined || now.bounds.y < general.bounds.y - 50;
    }, { ...WAIT, what: 'the list to scroll up' });
    // Back to the top for the next cases.
    await page.mouse.move(to.x, to.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y, { steps: 8 });
    await page.mouse.up();
    await eventually(async () => (await nodeLabelled(harness, 'General'))?.bounds.y === general.bounds.y, { ...WAIT, what: 'the list back at the top' });
  });

  it('outlines a tree node on the screen while it is hovered', async () => {
    const general = (await nodeLabelled(harness, 'General')) as Node;
    const node = page.getByTestId('tree').getByTestId('tree-node').and(page.locator('[data-label="General"]')).first();
    await eventually(() => node.isVisible(), { ...WAIT, what: 'General in the page tree' });
    await node.hover();
    const outline = page.locator('[data-testid="screen-outline"][data-kind="hover"]');
    await outline.waitFor();
    const [box, screen] = await Promise.all([outline.boundingBox(), page.getByTestId('screen').boundingBox()]);
    const status = await call(harness.url, 'GET', DEVICE_PATH);
    const width = (status.body.screen as { width: number }).width;
    // The outline sits where the node is: its left and top in screen points, within one point.
    expect(Math.abs(((box!.x - screen!.x) / screen!.width) * width - general.bounds.x)).toBeLessThan(1.5);
    expect(Math.abs(((box!.y - screen!.y) / screen!.width) * width - general.bounds.y)).toBeLessThan(1.5);
  });

  it('selects the node under the pointer when the screen is hovered, with its details and MCP call', async () => {
    const general = (await nodeLabelled(harness, 'General')) as Node;
    const at = await pagePoint({ x: general.bounds.x + 4, y: general.center.y });
    await page.mouse.move(at.x, at.y);
    const details = page.getByTestId('node-details');
    await eventually(async () => /General/.test(await details.innerText()), { ...WAIT, what: 'the details of the node under the pointer' });
    expect(await page.getByTestId('mcp-call').inputValue()).toMatch(/^tap \{"(ref|x)":/);
  });

  it('outlines the matches of find_text "General" (tree matches drawn solid)', async () => {
    await page.getByTestId('find-input').fill('General');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const match = page.locator('[data-testid="screen-outline"][data-kind="tree"][data-label="General"]');
    await match.first().waitFor();
    expect(await page.getByTestId('find-results').innerText()).toContain('ui-tree');
  });

  it('types into Notes from the keyboard', async () => {
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await eventually(async () => (await foregroundApp(harness)) === 'com.apple.springboard', { ...WAIT, what: 'the home screen' });
    const notes = (await eventually(() => nodeLabelled(harness, 'Notes', 'icon'), { ...WAIT, what: 'the Notes icon' })) as Node;
    await clickOnScreen(notes.center);
    await eventually(async () => (await foregroundApp(harness)) === 'com.apple.mobilenotes', { ...WAIT, what: 'Notes in front' });
    const body = (await eventually(async () => (await treeNodes(harness)).find((n) => n.role === 'textField' || n.role === 'textView'), {
      ...WAIT,
      what: 'the note body',
    })) as Node;
    await clickOnScreen(body.center);
    await page.keyboard.type('Hello Apex');
    await eventually(async () => (await treeNodes(harness)).some((n) => n.value === 'Hello Apex'), { ...WAIT, what: 'the typed text in the note' });
    // The page's tree shows it too once it reads the tree again after the action.
    await eventually(async () => /Hello Apex/.test(await page.getByTestId('tree').innerText()), { ...WAIT, what: 'the text in the page tree' });
  });

  it('runs a task from the page to succeeded, with its steps on the timeline', async () => {
    await page.getByRole('button', { name: 'Home', exact: true }).click();
    await eventually(async () => (await foregroundApp(harness)) === 'com.apple.springboard', { ...WAIT, what: 'the home screen' });
    await page.getByTestId('goal-input').fill('open Settings');
    await page.getByTestId('start-task').click();
    await eventually(async () => (await page.getByTestId('task-status').innerText()).toLowerCase() === 'succeeded', { ...WAIT, what: 'the task to succeed' });
    const steps = page.getByTestId('task-step');
    expect(await steps.count()).toBeGreaterThanOrEqual(1);
    expect(await steps.first().innerText()).toMatch(/tap/);
    // The step's screenshot (GET /task/{id}/steps/{n}/screenshot, fetched with the token), and the filmstrip.
    const shot = steps.first().getByTestId('step-screenshot');
    await shot.waitFor();
    await eventually(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { ...WAIT, what: 'the step screenshot decoded' });
    await page.getByTestId('filmstrip').getByTestId('step-screenshot').first().waitFor();
    // The inspector follows what the task did: its tree is read again as steps arrive.
    await eventually(async () => /Airplane Mode/.test(await page.getByTestId('tree').innerText()), { ...WAIT, what: 'the Settings tree in the inspector' });
  });

  it('has no serious or critical accessibility violations, light and dark', async () => {
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('broke no rule of its Content-Security-Policy and threw no error', () => {
    expect(rig.cspViolations).toEqual([]);
    expect(rig.pageErrors).toEqual([]);
  });
});

describe('the dashboard with APEX_TOKEN set', () => {
  const TOKEN = 'dashboard-test-token';
  let dist: string;
  let harness: RestHarness;
  let browser: Browser;

  beforeAll(async () => {
    dist = buildDashboard();
    harness = await startRestHarness({ dashboardDir: dist, token: TOKEN });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('serves the page without the token, but the API refuses every call without it', async () => {
    const page = await fetch(`${harness.url}/`);
    expect(page.status).toBe(200);
    expect((await call(harness.url, 'GET', '/devices')).status).toBe(401);
    expect((await call(harness.url, 'POST', `${DEVICE_PATH}/tap`, { body: { x: 10, y: 10 } })).status).toBe(401);
  });

  it('asks for the token, refuses a wrong one, and works with the right one sent as a bearer header', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const bearer: string[] = [];
    page.on('request', (req) => {
      const auth = req.headers()['authorization'];
      if (auth) bearer.push(auth);
      expect(req.url()).not.toContain(TOKEN);
    });
    await page.goto(`${harness.url}/`);
    const field = page.getByRole('textbox', { name: 'Token' });
    await field.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await field.fill('wrong-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('That token was refused.').waitFor();
    await field.fill(TOKEN);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByTestId('device-item').first().waitFor();
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
    // The stream too is read with the bearer header (an <img src> could not send it).
    expect(await page.locator('.screen-meta').innerText()).toMatch(/^Live stream/);
    expect(bearer).toContain(`Bearer ${TOKEN}`);
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([]);
    await page.close();
  });
});

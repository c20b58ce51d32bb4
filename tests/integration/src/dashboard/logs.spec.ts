/// <reference lib="dom" />
import { eventually } from '@apex/testing';
import type { Page } from 'playwright-core';
import { CAMERA_BUNDLE_ID } from '@apex/virtual-device';
import { call, DEVICE_PATH } from '../rest/harness';
import { nodeLabelled, startDashboard, WAIT, type DashboardRig, type Node } from './page-kit';

jest.setTimeout(180_000);

/**
 * The dashboard's Logs panel in headless Chromium, over the embedded virtual iPhone: it follows the device log
 * live (what the phone logs after the page opened shows up), filters by text, pauses, and a crash badge appears
 * when the phone writes a crash report. What the phone did is driven over REST, as any other client would.
 */
describe('the dashboard Logs panel and crash badge', () => {
  let rig: DashboardRig;
  let page: Page;
  const logText = () => page.getByTestId('log-lines').innerText();

  beforeAll(async () => {
    rig = await startDashboard();
    page = rig.page;
    await page.goto(`${rig.harness.url}/`);
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
  });
  afterAll(async () => rig?.close());

  it('follows the device log live: an app launched after the page opened shows up', async () => {
    expect((await call(rig.harness.url, 'POST', `${DEVICE_PATH}/launch`, { body: { appId: CAMERA_BUNDLE_ID } })).status).toBe(200);
    await eventually(async () => /app<com\.apple\.camera>:\d+\] Launch succeeded/.test(await logText()), { ...WAIT, what: 'the launch line in the Logs panel' });
    expect(await logText()).toContain('Camera: Viewfinder shown; no capture device');
  });

  it('filters by text, and Pause stops following', async () => {
    await page.getByLabel('Log text').fill('Viewfinder');
    await page.getByLabel('Log text').press('Tab');
    await eventually(async () => {
      const text = await logText();
      return text.includes('Viewfinder') && !text.includes('Launch succeeded');
    }, { ...WAIT, what: 'only the Viewfinder line' });
    await page.getByTestId('logs-pause').click();
    expect(await page.getByTestId('logs-pause').getAttribute('aria-pressed')).toBe('true');
    const before = await logText();
    await call(rig.harness.url, 'POST', `${DEVICE_PATH}/terminate`, { body: { appId: CAMERA_BUNDLE_ID } });
    await call(rig.harness.url, 'POST', `${DEVICE_PATH}/launch`, { body: { appId: CAMERA_BUNDLE_ID } });
    // While paused the panel asks nothing: the count of its log requests stays put over a few follow periods.
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/logs')) requests.push(r.url());
    });
    await page.waitForTimeout(3_500);
    expect(requests).toEqual([]);
    expect(await logText()).toBe(before);
    await page.getByTestId('logs-pause').click();
    await eventually(async () => (await logText()).split('Viewfinder').length - 1 >= 2, { ...WAIT, what: 'the second Viewfinder line after Resume' });
    await page.getByLabel('Log text').fill('');
    await page.getByLabel('Log text').press('Tab');
  });

  it('a crash report shows a badge naming the app', async () => {
    expect(await page.getByTestId('crash-badge').count()).toBe(0);
    const button = (await eventually(() => nodeLabelled(rig.harness, 'Open Camera'), { ...WAIT, what: 'the Open Camera button' })) as Node;
    await call(rig.harness.url, 'POST', `${DEVICE_PATH}/tap`, { body: { x: button.center.x, y: button.center.y } });
    await eventually(async () => (await page.getByTestId('crash-badge').count()) === 1, { ...WAIT, what: 'the crash badge' });
    expect(await page.getByTestId('crash-badge').innerText()).toContain(CAMERA_BUNDLE_ID);
    expect(rig.pageErrors).toEqual([]);
    expect(rig.cspViolations).toEqual([]);
  });
});

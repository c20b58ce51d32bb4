/// <reference lib="dom" />
// The page-side callbacks of page.evaluate run in the browser and use its DOM types.
import { eventually } from '@apex/testing';
import type { Page } from 'playwright-core';
import { MAX_SCREEN_VIEWERS_PER_DEVICE } from '@apex/capability';
import { call, DEVICE_PATH, type RestHarness } from '../rest/harness';
import { StreamClient } from '../rest/stream-client';
import { foregroundApp, frameDigest, nodeLabelled, startDashboard, WAIT, type DashboardRig, type Node } from './page-kit';

jest.setTimeout(180_000);

/**
 * The page reads the element tree (a slow device call that queues before everyone's actions) only when the live
 * screen shows a change, never while it is hidden; the tree keeps its nodes' identity across reads, and what
 * `find` outlined goes when the screen changes. A device with all the viewers it serves says so.
 */
describe("the dashboard's live screen and the element tree read when it changes, not on a timer", () => {
  let rig: DashboardRig;
  let harness: RestHarness;
  let page: Page;
  const treeReads: string[] = [];

  const frames = async () => Number(await page.getByTestId('screen').getAttribute('data-frames'));
  /** Waits until the page has received `n` more frames of the live screen (the clock of these checks). */
  async function waitFrames(n: number): Promise<void> {
    const from = await frames();
    await eventually(async () => (await frames()) >= from + n, { ...WAIT, what: `${n} more frames` });
  }
  /** Changes the screen the way an agent does: through the API, not through the page. */
  async function act(path: string, body: Record<string, unknown>): Promise<void> {
    expect((await call(harness.url, 'POST', `${DEVICE_PATH}${path}`, { body: { ...body, observe: 'none' } })).status).toBe(200);
  }
  async function setHidden(hidden: boolean): Promise<void> {
    await page.evaluate((value) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (value ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  }
  const hoverOutline = () => page.locator('[data-testid="screen-outline"][data-kind="hover"]');
  /** The outline's top edge in screen points. */
  async function outlineTop(): Promise<number> {
    const [box, screen] = await Promise.all([hoverOutline().boundingBox(), page.getByTestId('screen').boundingBox()]);
    const width = ((await call(harness.url, 'GET', DEVICE_PATH)).body.screen as { width: number }).width;
    return ((box!.y - screen!.y) / screen!.width) * width;
  }

  beforeAll(async () => {
    rig = await startDashboard();
    ({ harness, page } = rig);
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/ui-tree')) treeReads.push(request.url());
    });
    await act('/press-button', { button: 'home' });
    await page.goto(`${harness.url}/`);
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
    await page.getByTestId('tree-node').first().waitFor();
  });
  afterAll(async () => rig?.close());

  it('reads it once at the start and never again while the screen stays the same', async () => {
    expect(treeReads).toHaveLength(1);
    // 60 frames: several seconds of an unchanged screen, longer than any polling period the page had.
    await waitFrames(60);
    expect(treeReads).toHaveLength(1);
  });

  it('reads it once after the screen changed', async () => {
    const before = treeReads.length;
    const digest = await frameDigest(page);
    await act('/launch', { appId: 'com.apple.Preferences' });
    await eventually(async () => (await frameDigest(page)) !== digest, { ...WAIT, what: 'the page to show Settings' });
    await eventually(() => treeReads.length === before + 1, { ...WAIT, what: 'one tree read after the change' });
    await eventually(async () => /General/.test(await page.getByTestId('tree').innerText()), { ...WAIT, what: 'the Settings tree' });
    await waitFrames(30);
    expect(treeReads).toHaveLength(before + 1);
  });

  it('keeps the hovered node (the same element in the page) and its outline when the tree is read again after it moved', async () => {
    const general = (await nodeLabelled(harness, 'General')) as Node;
    const row = page.getByTestId('tree').getByTestId('tree-node').and(page.locator('[data-label="General"]')).first();
    await row.hover();
    await hoverOutline().waitFor();
    expect(Math.abs((await outlineTop()) - general.bounds.y)).toBeLessThan(1.5);
    const element = await row.elementHandle();
    const reads = treeReads.length;

    // Scroll the list a little (General stays on the screen, at another place: the server gives it another id).
    await act('/swipe', { from: { x: 196, y: 700 }, to: { x: 196, y: 640 }, durationMs: 600 });
    const moved = (await eventually(async () => {
      const now = await nodeLabelled(harness, 'General');
      return now && now.bounds.y !== general.bounds.y ? now : undefined;
    }, { ...WAIT, what: 'General moved' })) as Node;
    await eventually(() => treeReads.length > reads, { ...WAIT, what: 'the tree read again' });
    await eventually(async () => Math.abs((await outlineTop()) - moved.bounds.y) < 1.5, { ...WAIT, what: 'the hover outline on the moved row' });
    expect(await element!.evaluate((el) => el.isConnected && el.matches(':hover'))).toBe(true);
    await page.mouse.move(0, 0);
  });

  it('clears the find outlines when the screen changes', async () => {
    await page.getByTestId('find-input').fill('General');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const outlines = page.locator('[data-testid="screen-outline"][data-kind="tree"]');
    await outlines.first().waitFor();
    await act('/press-button', { button: 'home' });
    await eventually(async () => (await foregroundApp(harness)) === 'com.apple.springboard', { ...WAIT, what: 'the home screen' });
    await eventually(async () => (await outlines.count()) === 0, { ...WAIT, what: 'the find outlines gone' });
  });

  it('reads nothing while the page is hidden, and once when it is shown again', async () => {
    await waitFrames(5);
    const before = treeReads.length;
    await setHidden(true);
    const digest = await frameDigest(page);
    await act('/launch', { appId: 'com.apple.Preferences' });
    await eventually(async () => (await frameDigest(page)) !== digest, { ...WAIT, what: 'the hidden page to receive the change' });
    await waitFrames(30);
    expect(treeReads).toHaveLength(before);
    await setHidden(false);
    await eventually(() => treeReads.length === before + 1, { ...WAIT, what: 'one tree read once shown' });
    await waitFrames(20);
    expect(treeReads).toHaveLength(before + 1);
  });

  it('says the device is busy when it already has all the viewers it serves, and shows the screen once one leaves', async () => {
    // The page leaves; ten other viewers take every place (retrying while the server notices the page left).
    await page.goto('about:blank');
    const others: StreamClient[] = [];
    try {
      await eventually(async () => {
        const viewer = await StreamClient.open(`${harness.url}${DEVICE_PATH}/stream`);
        if (viewer.response.statusCode === 200) others.push(viewer);
        else viewer.close();
        return others.length === MAX_SCREEN_VIEWERS_PER_DEVICE;
      }, { ...WAIT, what: `${MAX_SCREEN_VIEWERS_PER_DEVICE} other viewers` });
      await page.goto(`${harness.url}/`);
      const banner = page.getByRole('alert');
      await eventually(async () => (await banner.getAttribute('data-code')) === 'device_busy', { ...WAIT, what: 'the device_busy message' });
      expect(await banner.innerText()).toMatch(/viewers/);
      // One leaves: the page's next try gets the screen.
      others.shift()?.close();
      await page.getByTestId('screen').and(page.locator('img')).waitFor();
      await waitFrames(3);
    } finally {
      for (const other of others) other.close();
    }
  });

  it('threw no error in the page', () => {
    expect(rig.pageErrors).toEqual([]);
    expect(rig.cspViolations).toEqual([]);
  });
});

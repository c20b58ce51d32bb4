/// <reference lib="dom" />
// The page-side callbacks of page.evaluate run in the browser and use its DOM types.
import { rmSync } from 'node:fs';
import { buildDashboard, launchChromium } from '@apex/testing/browser';
import type { Browser, Page } from 'playwright-core';
import { call, DEVICE_PATH, startRestHarness, type RestHarness } from '../rest/harness';

/**
 * What the dashboard's browser specs share: one server (the whole stack, embedded virtual iPhone) and one
 * browser page per file, and the REST look-ups that check what the page did on the phone itself.
 */

// Building the page, starting a phone and a browser on a busy 2-core machine: generous deadlines, no timing checks.
export const WAIT = { timeoutMs: 45_000, intervalMs: 100 };

export interface Node {
  role: string;
  label?: string;
  value?: string;
  bounds: { x: number; y: number; width: number; height: number };
  center: { x: number; y: number };
  children?: Node[];
}

export interface DashboardRig {
  harness: RestHarness;
  browser: Browser;
  page: Page;
  cspViolations: string[];
  pageErrors: string[];
  close(): Promise<void>;
}

export async function startDashboard(options: { token?: string } = {}): Promise<DashboardRig> {
  const dist = buildDashboard();
  const harness = await startRestHarness({ dashboardDir: dist, token: options.token });
  const browser = await launchChromium();
  // axe needs a page of a context the test made; downloads are kept for the Save buttons.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    harness,
    browser,
    page,
    cspViolations,
    pageErrors,
    async close() {
      await browser.close();
      await harness.close();
      rmSync(dist, { recursive: true, force: true });
    },
  };
}

export function flatten(node: Node): Node[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

export async function treeNodes(h: RestHarness): Promise<Node[]> {
  const answer = await call(h.url, 'GET', `${DEVICE_PATH}/ui-tree?format=tree`);
  return flatten(answer.body.root as Node);
}

export async function nodeLabelled(h: RestHarness, label: string, role?: string): Promise<Node | undefined> {
  return (await treeNodes(h)).find((n) => n.label === label && (!role || n.role === role));
}

export interface Status {
  foregroundApp?: { appId: string };
  orientation?: string;
  locked?: boolean;
  screen: { width: number; height: number };
}

export async function deviceStatus(h: RestHarness): Promise<Status> {
  return (await call(h.url, 'GET', DEVICE_PATH)).body as unknown as Status;
}

export async function foregroundApp(h: RestHarness): Promise<string | undefined> {
  return (await deviceStatus(h)).foregroundApp?.appId;
}

/** Where a point of the device's screen is on the page (the screen as device_status reports it now). */
export async function pagePoint(page: Page, h: RestHarness, point: { x: number; y: number }): Promise<{ x: number; y: number }> {
  const box = await page.getByTestId('screen').boundingBox();
  if (!box) throw new Error('the screen is not shown');
  const { screen } = await deviceStatus(h);
  return { x: box.x + (point.x / screen.width) * box.width, y: box.y + (point.y / screen.height) * box.height };
}

export async function clickOnScreen(page: Page, h: RestHarness, point: { x: number; y: number }): Promise<void> {
  // A click on a button lower down may have scrolled the screen out of the viewport.
  await page.getByTestId('screen').scrollIntoViewIfNeeded();
  const at = await pagePoint(page, h, point);
  await page.mouse.click(at.x, at.y);
}

/** A digest of the frame the page shows (drawn on a canvas: the page's CSP lets no script fetch a blob). */
export function frameDigest(page: Page): Promise<string> {
  return page.getByTestId('screen').evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 128;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    g.drawImage(img, 0, 0, 64, 128);
    const data = g.getImageData(0, 0, 64, 128).data;
    let hash = 0;
    for (let i = 0; i < data.length; i += 4) hash = (hash * 31 + data[i] + data[i + 1] * 7 + data[i + 2] * 13) >>> 0;
    return `${img.naturalWidth}x${img.naturalHeight}:${hash}`;
  });
}

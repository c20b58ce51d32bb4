/// <reference lib="dom" />
// The page-side callbacks of page.evaluate run in the browser and use its DOM types.
/**
 * The dashboard in headless Chromium against the REST server on one virtual iPhone that streams its screen: page load (navigation
 * → the device listed and its first frame shown), the live screen's frames per second as the page receives
 * them (stream, or the screenshot fallback when the server has no stream route), and click-to-frame (a click
 * on the Settings icon on the screen → the first frame the page shows that differs).
 */
import { rmSync } from 'node:fs';
import { createWdaDriver } from '@apex/driver-wda';
import { DeviceHub } from '@apex/hub';
import { Perception } from '@apex/perception';
import { createRestLogger, startRestApi } from '@apex/rest';
import { buildDashboard, launchChromium } from '@apex/testing/browser';
import { startVirtualIPhone } from '@apex/virtual-device';
import type { Page } from 'playwright-core';
import type { Section, SectionResult } from './support/section';
import { target } from './support/section';
import { round, summarize } from './support/stats';

interface FrameLog {
  /** `arrived`: when the page cut the frame from the stream (its blob URL was made); `t`: when the <img> loaded it. */
  frames: { t: number; arrived: number; digest: string }[];
  /** The page's POST …/tap requests: sent and answered. */
  taps: { sent: number; answered: number }[];
}

/** Records every frame the page shows: its time and a digest of its pixels. */
function watchFrames(page: Page): Promise<void> {
  return page.evaluate(() => {
    const log: FrameLog = { frames: [], taps: [] };
    (window as unknown as { apexFrames: FrameLog }).apexFrames = log;
    // Where a click's time goes: the page's tap request, and when each frame arrived before it was shown.
    const arrivals = new Map<string, number>();
    const createObjectURL = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      const url = createObjectURL(blob);
      arrivals.set(url, performance.now());
      return url;
    };
    const fetchBefore = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).endsWith('/tap')) return fetchBefore(input, init);
      const sent = performance.now();
      const res = await fetchBefore(input, init);
      log.taps.push({ sent, answered: performance.now() });
      return res;
    };
    const canvas = document.createElement('canvas');
    canvas.width = 32;
    canvas.height = 64;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    const digestOf = (img: HTMLImageElement) => {
      g.drawImage(img, 0, 0, 32, 64);
      const data = g.getImageData(0, 0, 32, 64).data;
      let hash = 0;
      for (let i = 0; i < data.length; i += 4) hash = (hash * 31 + data[i] + data[i + 1] * 7 + data[i + 2] * 13) >>> 0;
      return String(hash);
    };
    (window as unknown as { apexScreenDigest: () => string }).apexScreenDigest = () =>
      digestOf(document.querySelector('img[data-testid="screen"]') as HTMLImageElement);
    document.addEventListener(
      'load',
      (event) => {
        const img = event.target as HTMLImageElement;
        if (img.dataset?.testid !== 'screen') return;
        log.frames.push({ t: performance.now(), arrived: arrivals.get(img.src) ?? Number.NaN, digest: digestOf(img) });
        arrivals.delete(img.src);
      },
      true,
    );
  });
}

function frames(page: Page): Promise<FrameLog['frames']> {
  return page.evaluate(() => (window as unknown as { apexFrames: FrameLog }).apexFrames.frames);
}

/** A digest of the pixels the page's screen shows now. */
function screenDigest(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { apexScreenDigest: () => string }).apexScreenDigest());
}

function taps(page: Page): Promise<FrameLog['taps']> {
  return page.evaluate(() => (window as unknown as { apexFrames: FrameLog }).apexFrames.taps);
}

async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const dashboardSection: Section = {
  name: 'dashboard',
  description: 'the web page in headless Chromium: load time, frames/s received, click-to-frame latency',
  async run({ quick, log }): Promise<SectionResult> {
    const loads = quick ? 2 : 10;
    const clicks = quick ? 2 : 10;
    const dist = buildDashboard();
    // A phone that streams its screen (MJPEG), as the embedded one of `apex serve` does.
    const iphone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
    const hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'bench-1', driver: createWdaDriver({ deviceId: 'bench-1', url: iphone.url, mjpegUrl: `http://127.0.0.1:${iphone.mjpegPort}` }) });
    const perception = new Perception(hub);
    const api = await startRestApi({ hub, perception }, { port: 0, mcp: false, dashboardDir: dist, logger: createRestLogger({ level: 'silent' }) });
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();

      const loadMs: number[] = [];
      for (let i = 0; i < loads; i++) {
        const started = performance.now();
        await page.goto(`${api.url}/`);
        await page.getByTestId('device-item').first().waitFor();
        const listed = performance.now() - started;
        loadMs.push(listed);
        log(`  load ${i + 1}: devices listed after ${listed.toFixed(0)} ms`);
      }
      await page.locator('img[data-testid="screen"]').waitFor();
      const mode = (await page.locator('.screen-meta').innerText()).startsWith('Live stream') ? 'stream' : 'screenshots';

      await watchFrames(page);
      const windowMs = quick ? 2000 : 10_000;
      const counted = () => page.locator('img[data-testid="screen"]').getAttribute('data-frames').then(Number);
      const [t0, n0] = [await page.evaluate(() => performance.now()), await counted()];
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const [t1, n1] = [await page.evaluate(() => performance.now()), await counted()];
      const seen = (await frames(page)).filter((f) => f.t >= t0 && f.t <= t1);
      const fps = ((n1 - n0) * 1000) / (t1 - t0);
      log(`  ${n1 - n0} frames received, ${seen.length} shown, in ${(t1 - t0).toFixed(0)} ms (${mode}): ${fps.toFixed(1)} frames/s`);

      // Click the Settings icon on the screen, wait for the changed frame, go Home through REST, again.
      const device = 'bench-1';
      const status = (await (await fetch(`${api.url}/devices/${device}`)).json()) as { screen: { width: number; height: number } };
      const tree = (await (await fetch(`${api.url}/devices/${device}/find-text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Settings', exact: true }) })).json()) as {
        matches: { center: { x: number; y: number } }[];
      };
      const icon = tree.matches[0]?.center;
      if (!icon) throw new Error('no Settings icon on the home screen');
      const clickMs: number[] = [];
      const parts = { tapSent: [] as number[], tapAnswered: [] as number[], frameArrived: [] as number[], frameShown: [] as number[] };
      const post = (path: string, body: unknown) =>
        fetch(`${api.url}/devices/${device}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const foreground = async () => ((await (await fetch(`${api.url}/devices/${device}`)).json()) as { foregroundApp: { appId: string } }).foregroundApp.appId;
      for (let i = 0; i < clicks; i++) {
        // From the home screen, shown: the first frame loaded after the phone says it is home.
        await post('/press-button', { button: 'home' });
        await waitFor(async () => ((await foreground()) === 'com.apple.springboard' ? true : undefined), 'the home screen');
        // The home screen settled on the page: a frame received since the phone said so (frames still in flight
        // from before may show the last screen), and what the page shows the same after the next one. An
        // unchanged screen is received but not swapped in, so this reads the pixels shown, not the frames loaded.
        const receivedAtHome = await counted();
        const before = await waitFor(async () => {
          if ((await counted()) <= receivedAtHome) return undefined;
          const digest = await screenDigest(page);
          const received = await counted();
          await waitFor(async () => ((await counted()) > received ? true : undefined), 'the next frame');
          return (await screenDigest(page)) === digest ? digest : undefined;
        }, 'a settled frame of the home screen');
        const box = await page.locator('img[data-testid="screen"]').boundingBox();
        if (!box) throw new Error('no screen');
        const at = { x: box.x + (icon.x / status.screen.width) * box.width, y: box.y + (icon.y / status.screen.height) * box.height };
        const clickedAt = await page.evaluate(() => performance.now());
        await page.mouse.click(at.x, at.y);
        const changed = await waitFor(async () => (await frames(page)).find((f) => f.arrived > clickedAt && f.digest !== before), 'a changed frame');
        clickMs.push(changed.t - clickedAt);
        const tap = (await taps(page)).find((t) => t.sent > clickedAt);
        const split = {
          tapSent: (tap?.sent ?? Number.NaN) - clickedAt,
          tapAnswered: (tap?.answered ?? Number.NaN) - clickedAt,
          frameArrived: changed.arrived - clickedAt,
          frameShown: changed.t - changed.arrived,
        };
        for (const key of Object.keys(parts) as (keyof typeof parts)[]) parts[key].push(split[key]);
        log(
          `  click ${i + 1}: changed frame after ${(changed.t - clickedAt).toFixed(0)} ms (tap sent +${split.tapSent.toFixed(0)}, answered +${split.tapAnswered.toFixed(0)}, frame arrived +${split.frameArrived.toFixed(0)}, decoded and shown ${split.frameShown.toFixed(0)} ms later)`,
        );
      }
      const load = summarize(loadMs);
      const click = summarize(clickMs);
      log(`  click-to-frame median ${click.p50.toFixed(0)} ms`);
      const median = (values: number[]) => round(summarize(values.filter(Number.isFinite)).p50, 0);
      return {
        title: `Dashboard in headless Chromium (${mode} mode), one virtual iPhone over REST`,
        columns: ['figure', 'n', 'median', 'p95', 'unit'],
        rows: [
          { figure: 'page load → devices listed', n: load.n, median: round(load.p50, 0), p95: round(load.p95, 0), unit: 'ms' },
          { figure: `frames received per second (${mode})`, n: n1 - n0, median: round(fps, 1), p95: null, unit: 'frames/s' },
          { figure: 'click on screen → changed frame shown', n: click.n, median: round(click.p50, 0), p95: round(click.p95, 0), unit: 'ms' },
          { figure: '… click → the page sends the tap', n: click.n, median: median(parts.tapSent), p95: null, unit: 'ms' },
          { figure: '… click → the tap answered', n: click.n, median: median(parts.tapAnswered), p95: null, unit: 'ms' },
          { figure: '… click → the changed frame arrives (cut from the stream)', n: click.n, median: median(parts.frameArrived), p95: null, unit: 'ms' },
          { figure: '… its arrival → shown (decoded, <img> loaded)', n: click.n, median: median(parts.frameShown), p95: null, unit: 'ms' },
        ],
        targets: [
          target('dashboard frames/s', '≥ 5 frames/s', fps, 'frames/s', fps >= 5),
          target('click-to-frame', '≤ 300 ms on loopback', click.p50, 'ms', click.p50 <= 300),
        ],
        notes: [
          `Frames per second: frames the page received over a ${windowMs} ms window (mean rate, not a median); click-to-frame from the page's own clock (performance.now) at the click to the load of the first frame whose pixels differ.`,
        ],
        data: { mode, parts, loadMs: loadMs.map((v) => round(v, 1)), clickMs: clickMs.map((v) => round(v, 1)), fps: round(fps, 2) },
      };
    } finally {
      await browser.close();
      await api.close();
      await perception.close();
      await hub.close();
      await iphone.close();
      rmSync(dist, { recursive: true, force: true });
    }
  },
};

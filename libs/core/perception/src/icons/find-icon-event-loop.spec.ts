import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import sharp from 'sharp';
import { Perception } from '../perception';
import { noisePng } from '../testing/noise-image';
import { renderScreen } from '../testing/rendered-screen';
import { uiNode } from '../testing/ui-nodes';
import { MAX_TEMPLATE_SIDE_PX } from './template-limits';

const GEOMETRY = { width: 393, height: 852, scale: 3 };

/**
 * The longest the event loop may stall while find_icon matches the largest template allowed. On main this
 * was ~5 s for a 256 px noise template (~14 s for 600 px): the correlation ran on the event loop. Now it runs
 * in a worker thread and what is left here (a small grey conversion, scanning score maps) takes well under
 * 50 ms (measured 50–80 ms max with the machine at load 7, where an idle loop alone shows ~60 ms). The bound is
 * generous because a busy 2-core machine deschedules the process, which counts as delay; on a machine so busy that
 * the match itself takes seconds, it grows to half the match's time — a match run on the loop stalls it for all of it.
 */
const MAX_LOOP_DELAY_MS = 300;
const MATCH_TIMEOUT = 120_000;

describe('find_icon with the largest template keeps the event loop free', () => {
  const rendered = renderScreen({
    ...GEOMETRY,
    texts: [{ text: 'Photos', x: 20, baseline: 120, size: 30 }],
    icons: [
      { kind: 'trash', cx: 120, cy: 500, size: 26 },
      { kind: 'gear', cx: 300, cy: 700, size: 26 },
    ],
  });
  // A screen busy with edges everywhere (like a photo grid): no window is skipped as flat, the worst case.
  const screenshot = noisePng(393 * 3, 7, 450 * 3).then((photo) =>
    sharp(rendered.png).composite([{ input: photo, left: 0, top: 150 * 3 }]).png().toBuffer(),
  );
  const driver = new FakeDriver({ screen: GEOMETRY });
  driver.behave('screenshot', async () => ({ png: await screenshot, width: 393 * 3, height: 852 * 3, scale: 3 }));
  driver.behave('uiTree', async () => uiNode('app', { x: 0, y: 0, ...GEOMETRY }, { id: 'app', label: 'Demo' }));
  const hub = new DeviceHub();
  hub.register({ id: 'phone', driver });
  const perception = new Perception(hub, { ocrWorkers: 1 });

  afterAll(async () => {
    await perception.close();
    await hub.close();
  });

  it(
    `matches a ${MAX_TEMPLATE_SIDE_PX}×${MAX_TEMPLATE_SIDE_PX} noise template without stalling the loop`,
    async () => {
      const template = (await noisePng(MAX_TEMPLATE_SIDE_PX)).toString('base64');
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      // The histogram measures between its ticks: let it tick before the work starts and once after it ends,
      // or a stall at either end goes unseen.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      const result = await perception.findIcon('phone', { template, name: 'gear' });
      const matchMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
      delay.disable();
      const maxMs = delay.max / 1e6;
      expect(delay.count).toBeGreaterThan(0);
      expect(maxMs).toBeLessThan(Math.max(MAX_LOOP_DELAY_MS, matchMs / 2));
      // The glyph search (also in the worker) still finds the gear; noise matches nothing at the default threshold.
      expect(result.matches).toEqual([expect.objectContaining({ label: 'settings', source: 'library' })]);
    },
    MATCH_TIMEOUT,
  );

  it('refuses a 600×600 template with invalid_argument naming the limit, before touching the device', async () => {
    const calls = driver.calls.length;
    const template = (await noisePng(600)).toString('base64');
    await expect(perception.findIcon('phone', { template, name: 'gear' })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('at most 256×256 pixels'),
      issues: [{ path: 'template', message: 'must be at most 256×256 pixels' }],
    });
    expect(driver.calls.length).toBe(calls);
  });
});

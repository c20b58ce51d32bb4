/**
 * Resident memory after warm-up and every 1,000 of 10,000 mixed operations (tap, screenshot, UI tree, find_text,
 * describe_screen, device_status, launch_app between two apps) through the operation layer, after a full GC
 * each time. Growth beyond a few MB over the run would point at a leak.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { runOperation } from '@apex/capability';
import { NOTES_BUNDLE_ID, SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { mean, percentile, round } from './support/stats';

const MB = 1024 * 1024;

/** A full garbage collection, without needing node --expose-gc on the command line. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/**
 * Collected, and the native memory of what was collected given back: V8 frees a dead Buffer's bytes on a
 * background thread after the GC, so a reading right after one GC counted 0–5 freed 1179×2556 RGBA frames (11.5 MB
 * each) as still in use, at random (external 34–92 MB between checkpoints of the same work).
 */
async function settledGarbage(): Promise<void> {
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 100));
  collectGarbage();
}

export const memorySection: Section = {
  name: 'memory',
  description: 'RSS after warm-up and every 1,000 of 10,000 mixed operations: does it grow?',
  async run({ quick, log }): Promise<SectionResult> {
    const total = quick ? 40 : 10_000;
    const checkpoints = quick ? 4 : 10;
    /**
     * Mixed operations before the first checkpoint: every cache and pool reaches its working size. 300 was too
     * few: RSS peaked there (native buffers of sharp and tesseract still growing) and fell ~6 % over the next
     * 1,000 (BENCHMARKS.md, 2026-12-02), which is a warm-up, not a leak.
     */
    const warmUp = quick ? 30 : 1_000;
    const stack = await startStack(1);
    const [device] = stack.ids;
    const result: SectionResult = {
      title: `Memory of this process (Apex + the virtual iPhone + the OCR pool), after a full GC`,
      columns: ['after', 'operations', 'RSS MB', 'heap used MB', 'external MB'],
      rows: [],
      targets: [],
      notes: [],
    };
    const mix: [string, Record<string, unknown>][] = [
      ['tap', { x: 5, y: 30 }],
      ['take_screenshot', {}],
      ['get_ui_tree', {}],
      ['find_text', { text: 'General' }],
      ['describe_screen', {}],
      ['device_status', {}],
      ['find_text', { text: 'Notes', source: 'ocr' }],
      ['launch_app', { appId: NOTES_BUNDLE_ID }],
      ['get_ui_tree', { format: 'flat' }],
      ['launch_app', { appId: SETTINGS_BUNDLE_ID }],
    ];
    const checkpoint = async (label: string, done: number) => {
      await settledGarbage();
      const m = process.memoryUsage();
      result.rows.push({ after: label, operations: done, 'RSS MB': round(m.rss / MB, 1), 'heap used MB': round(m.heapUsed / MB, 1), 'external MB': round(m.external / MB, 1) });
      log(`  ${label}: RSS ${(m.rss / MB).toFixed(1)} MB`);
      return m.rss;
    };
    try {
      let done = 0;
      const one = async () => {
        const [name, args] = mix[done % mix.length] as [string, Record<string, unknown>];
        await runOperation(stack.ctx, name, { ...args, device });
        done += 1;
      };
      for (let i = 0; i < warmUp; i += 1) await one();
      done = 0;
      const warm = await checkpoint(`warm-up (${warmUp} mixed operations, OCR pool started)`, 0);
      const step = total / checkpoints;
      const seen: number[] = [];
      while (done < total) {
        await one();
        if (done % step === 0) seen.push(await checkpoint(`${done} mixed operations`, done));
      }
      // One GC'd sample swings by a few % with native buffers freed or not yet, so "flat" is judged against the
      // series' own median, and growth by its two ends (mean of the first and last three checkpoints).
      const level = percentile([...seen].sort((a, b) => a - b), 50);
      const farthest = seen.reduce((far, rss) => (Math.abs(rss - level) > Math.abs(far) ? rss - level : far), 0);
      const farthestPercent = (100 * farthest) / level;
      const ends = Math.min(3, seen.length);
      const trendPercent = (100 * (mean(seen.slice(-ends)) - mean(seen.slice(0, ends)))) / level;
      const last = seen.at(-1) ?? warm;
      const vsWarmPercent = (100 * (last - warm)) / warm;
      result.data = {
        rssWarmMb: round(warm / MB, 1),
        rssMedianMb: round(level / MB, 1),
        rssEndMb: round(last / MB, 1),
        farthestPercent: round(farthestPercent, 1),
        trendPercent: round(trendPercent, 1),
        vsWarmPercent: round(vsWarmPercent, 1),
      };
      result.targets.push(
        target(`RSS at every checkpoint of ${total} operations vs their median (farthest)`, 'within ±5 %', farthestPercent, '%', Math.abs(farthestPercent) <= 5),
        target(`RSS trend over ${total} operations (last three checkpoints vs first three)`, 'within ±5 %', trendPercent, '%', Math.abs(trendPercent) <= 5),
      );
      result.notes.push(
        `RSS median ${(level / MB).toFixed(1)} MB over the checkpoints; after warm-up ${(warm / MB).toFixed(1)} MB, at the end ${(last / MB).toFixed(1)} MB (${vsWarmPercent.toFixed(1)} % vs warm-up).`,
      );
      return result;
    } finally {
      await stack.close();
    }
  },
};

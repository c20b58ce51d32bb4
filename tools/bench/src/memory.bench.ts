/**
 * Resident memory after warm-up and every 1,000 of 10,000 mixed operations (tap, screenshot, UI tree, find_text,
 * describe_screen, device_status, launch_app between two apps) through the operation layer, after a full GC
 * each time. Growth beyond a few MB over the run would point at a leak.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { runOperation } from '@apex/operations';
import { NOTES_BUNDLE_ID, SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round } from './support/stats';

const MB = 1024 * 1024;

/** A full garbage collection, without needing node --expose-gc on the command line. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

export const memorySection: Section = {
  name: 'memory',
  description: 'RSS after warm-up and every 1,000 of 10,000 mixed operations: does it grow?',
  async run({ quick, log }): Promise<SectionResult> {
    const total = quick ? 40 : 10_000;
    const checkpoints = quick ? 4 : 10;
    /** Mixed operations before the first checkpoint: every cache and pool reaches its working size. */
    const warmUp = quick ? 30 : 300;
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
    const checkpoint = (label: string, done: number) => {
      collectGarbage();
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
      const warm = checkpoint(`warm-up (${warmUp} mixed operations, OCR pool started)`, 0);
      const step = total / checkpoints;
      let last = warm;
      let farthest = 0;
      while (done < total) {
        await one();
        if (done % step === 0) {
          last = checkpoint(`${done} mixed operations`, done);
          if (Math.abs(last - warm) > Math.abs(farthest)) farthest = last - warm;
        }
      }
      const grew = (last - warm) / MB;
      const farthestPercent = (100 * farthest) / warm;
      result.data = {
        rssWarmMb: round(warm / MB, 1),
        rssEndMb: round(last / MB, 1),
        growthMb: round(grew, 1),
        growthPercent: round((100 * (last - warm)) / warm, 1),
        farthestPercent: round(farthestPercent, 1),
      };
      result.targets.push(
        target(`RSS at every checkpoint of ${total} operations vs after warm-up (farthest)`, 'within ±5 %', farthestPercent, '%', Math.abs(farthestPercent) <= 5),
      );
      result.notes.push(
        `RSS ${grew >= 0 ? 'grew' : 'shrank'} by ${Math.abs(grew).toFixed(1)} MB (${((100 * (last - warm)) / warm).toFixed(1)} %) over ${total} operations; farthest from the warm-up figure at a checkpoint: ${farthestPercent.toFixed(1)} %.`,
      );
      return result;
    } finally {
      await stack.close();
    }
  },
};

import { z } from 'zod';
import { callerSignal, deviceRefs, getUiTree } from '@apex/hub';
import { invalidArgument } from '@apex/errors';
import { defineOperation, type OperationContext } from '../define-operation';
import { DEFAULT_WAIT_MS, MAX_WAIT_MS, WAIT_POLL_MS } from '../limits';
import { appIdValue, deviceField, refField, searchTextField } from '../schemas';

/** Reads in a row that must agree for the screen to count as stable (the animation or load is over). */
const STABLE_READS = 3;

type WaitInput = { device: string; text?: string; ref?: string; app?: string; gone?: boolean; stable?: boolean; source?: 'ui-tree' | 'ocr' | 'auto' };
/** One look at the screen: whether the condition holds, and what matched. */
type Check = () => Promise<{ holds: boolean; match?: Record<string, unknown> }>;

export const waitForOperation = defineOperation({
  name: 'wait_for',
  title: 'Wait for',
  description:
    'Waits until `text` or element `ref` shows (`gone`: disappears), app `app` is in front, or (`stable`) the screen stops changing. Reads the tree (`source` ocr/auto: pixels too).',
  input: z.strictObject({
    device: deviceField,
    text: searchTextField().optional(),
    ref: refField,
    app: appIdValue.optional(),
    gone: z.boolean().optional(),
    stable: z.boolean().optional(),
    source: z.enum(['ui-tree', 'ocr', 'auto']).optional(),
    timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe(`default ${DEFAULT_WAIT_MS}`),
  }),
  output: z.object({ met: z.boolean(), waitedMs: z.number(), match: z.record(z.string(), z.unknown()).optional() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'observe',
  handler: async (ctx, { timeoutMs = DEFAULT_WAIT_MS, ...input }) => {
    const check = conditionOf(ctx, input);
    const signal = callerSignal();
    const started = Date.now();
    for (;;) {
      const lookedAt = Date.now();
      const { holds, match } = await check();
      const waitedMs = Date.now() - started;
      if (holds) return match ? { met: true, waitedMs, match } : { met: true, waitedMs };
      if (waitedMs >= timeoutMs || signal?.aborted) return { met: false, waitedMs };
      // At most one read per WAIT_POLL_MS, however fast the device answers; never past the timeout.
      const pause = Math.min(WAIT_POLL_MS - (Date.now() - lookedAt), timeoutMs - waitedMs);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  },
  summarize: (s) => `${s.met ? 'Met' : 'Not met'} after ${s.waitedMs} ms${s.match ? `: ${JSON.stringify(s.match)}` : ''}.`,
});

function conditionOf(ctx: OperationContext, input: WaitInput): Check {
  const { device, text, ref, app, gone = false, stable = false, source = 'ui-tree' } = input;
  const given = [text !== undefined, ref !== undefined, app !== undefined, stable].filter(Boolean).length;
  if (given !== 1 || (gone && text === undefined && ref === undefined)) {
    throw invalidArgument(
      'wait_for waits for one thing: give exactly one of `text`, `ref`, `app` or `stable: true` (`gone` goes with text or ref).',
      [{ path: given === 0 ? 'text' : 'gone', message: 'give exactly one of text, ref, app or stable' }],
      'Example: {"text":"General"}, {"ref":"e4","gone":true}, {"app":"com.apple.Maps"} or {"stable":true}.',
    );
  }
  const shows = (holds: boolean) => holds !== gone;
  if (text !== undefined) {
    return async () => {
      const [first] = (await ctx.perception.findText(device, { text, source })).matches;
      return { holds: shows(first !== undefined), match: !gone && first ? { ...first } : undefined };
    };
  }
  if (ref !== undefined) {
    return async () => {
      const [tree, screen] = await Promise.all([getUiTree(ctx.hub, device), ctx.hub.screen(device)]);
      const found = deviceRefs(ctx.hub, device).resolve(ref, tree, { x: 0, y: 0, width: screen.width, height: screen.height });
      return { holds: shows(found !== undefined), match: !gone && found ? { ref, center: found.center } : undefined };
    };
  }
  if (app !== undefined) {
    return async () => {
      const front = await ctx.perception.foregroundApp(device, await getUiTree(ctx.hub, device));
      return { holds: front?.appId === app, match: front?.appId === app ? { ...front } : undefined };
    };
  }
  const prints: string[] = [];
  return async () => {
    prints.push(deviceRefs(ctx.hub, device).forTree(await getUiTree(ctx.hub, device)).fingerprint);
    if (prints.length > STABLE_READS) prints.shift();
    return { holds: prints.length === STABLE_READS && prints.every((p) => p === prints[0]) };
  };
}

import { z } from 'zod';
import { callerSignal, deviceRefs, getUiTree, type TreeRefs } from '@apex/hub';
import { renderDescription, type RenderableDescription } from '@apex/perception';
import type { UiNode } from '@apex/port';
import { WithImage, type AnyOperation, type OperationContext } from './define-operation';
import { slimDescription } from './operations/describe-screen';
import { observeField, type ObserveLevel } from './schemas';

/** How long observe: "describe" waits for the screen to stop changing, and how often it looks. */
const SETTLE_LIMIT_MS = 2_000;
const SETTLE_POLL_MS = 100;

/** What an action saw of the screen after it (observe "summary"), with the whole description for "describe". */
export interface Observed {
  app?: { appId: string; name?: string };
  /** Whether the screen differs from the last one Apex read on this device (absent when it had read none). */
  changed?: boolean;
  /** The title (or first text) of an alert that is up. */
  alert?: string;
  keyboardVisible: boolean;
  /** observe "describe": describe_screen's result for the settled screen. */
  screen?: Record<string, unknown>;
}

const observedOut = z
  .object({
    app: z.object({ appId: z.string(), name: z.string().optional() }).optional(),
    changed: z.boolean().optional(),
    alert: z.string().optional(),
    keyboardVisible: z.boolean(),
    screen: z.record(z.string(), z.unknown()).optional(),
  })
  .optional();

/**
 * The same operation, taking `observe` ("summary" by default) and answering `observed`: what the screen shows
 * after the action, so the next step needs no separate observation.
 */
export function observing(op: AnyOperation): AnyOperation {
  return {
    ...op,
    input: op.input.extend({ observe: observeField }),
    output: op.output.extend({ observed: observedOut }),
    handler: async (ctx: OperationContext, { observe = 'summary', ...input }: { observe?: ObserveLevel; device: string }) => {
      const before = deviceRefs(ctx.hub, input.device).lastSeen;
      const raw = await op.handler(ctx, input);
      if (observe === 'none') {
        // The screen may have changed unseen: the next summary cannot say whether it did.
        deviceRefs(ctx.hub, input.device).lastSeen = undefined;
        return raw;
      }
      const observed = await observeScreen(ctx, input.device, observe, before);
      return raw instanceof WithImage ? new WithImage({ ...raw.output, observed }, raw.image) : { ...raw, observed };
    },
    summarize: (output) => {
      const own = op.summarize ? op.summarize(output) : JSON.stringify({ ...output, observed: undefined });
      const observed = output.observed as Observed | undefined;
      return observed ? `${own}\n${renderObserved(observed)}` : own;
    },
  };
}

async function observeScreen(
  ctx: OperationContext,
  device: string,
  level: Exclude<ObserveLevel, 'none'>,
  before: TreeRefs | undefined,
): Promise<Observed> {
  const refs = deviceRefs(ctx.hub, device);
  let tree = await getUiTree(ctx.hub, device);
  if (level === 'describe') tree = await settledTree(ctx, device, tree);
  const after = refs.forTree(tree).fingerprint;
  const observed: Observed = { keyboardVisible: false };
  const app = await ctx.perception.foregroundApp(device, tree);
  if (app) observed.app = app;
  if (before !== undefined) observed.changed = before.fingerprint !== after;
  const alert = findNode(tree, 'alert');
  if (alert) observed.alert = alert.label || firstText(alert) || 'alert';
  observed.keyboardVisible = findNode(tree, 'keyboard') !== undefined;
  if (level === 'describe') {
    // describe_screen's result for the settled tree just read (not read a third time).
    const includeOcrText = ctx.observeWithOcr ?? true;
    observed.screen = slimDescription(await ctx.perception.describeScreen(device, { includeOcrText, tree })) as Record<string, unknown>;
  }
  return observed;
}

/** Reads the tree until two reads in a row agree (animations, loading), for at most SETTLE_LIMIT_MS. */
async function settledTree(ctx: OperationContext, device: string, first: UiNode): Promise<UiNode> {
  const refs = deviceRefs(ctx.hub, device);
  const signal = callerSignal();
  let tree = first;
  for (let waited = 0; waited < SETTLE_LIMIT_MS && !signal?.aborted; waited += SETTLE_POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const next = await getUiTree(ctx.hub, device);
    const same = refs.forTree(next).fingerprint === refs.forTree(tree).fingerprint;
    tree = next;
    if (same) break;
  }
  return tree;
}

function findNode(node: UiNode, role: UiNode['role']): UiNode | undefined {
  if (node.role === role && node.visible) return node;
  for (const child of node.children) {
    const found = findNode(child, role);
    if (found) return found;
  }
  return undefined;
}

function firstText(node: UiNode): string | undefined {
  return findNode(node, 'text')?.label;
}

function renderObserved(o: Observed): string {
  if (o.screen) return renderDescription(o.screen as unknown as RenderableDescription);
  const parts = [`Now: ${o.app ? (o.app.name ?? o.app.appId) : 'unknown app'}`];
  if (o.changed !== undefined) parts.push(o.changed ? 'screen changed' : 'screen unchanged');
  if (o.alert) parts.push(`alert "${o.alert}"`);
  if (o.keyboardVisible) parts.push('keyboard up');
  return `${parts.join('; ')}.`;
}

import { callerSignal, deviceRefs, getUiTree, type TreeRefs } from '@apex/hub';
import { renderDescription, type ScreenDescriptionResult } from '@apex/perception';
import type { AppRef, UiNode } from '@apex/port';
import type { OperationContext } from './define-operation';
import { slimDescription, type SlimDescription } from './operations/describe-screen';
import type { ObserveLevel } from './schemas';

/** How long observe: "describe" waits for the screen to stop changing, and how often it looks. */
const SETTLE_LIMIT_MS = 2_000;
const SETTLE_POLL_MS = 100;

/** What an action saw of the screen after it (`observed` in its output; the schema is `observedField`). */
export interface Observed {
  app?: AppRef;
  /** Whether the screen differs from the last one Apex read on this device (absent when it had read none). */
  changed?: boolean;
  /** The title (or first text) of an alert that is up. */
  alert?: string;
  keyboardVisible: boolean;
  /** observe "describe": describe_screen's result for the settled screen. */
  screen?: SlimDescription;
}

/** An action's observation: what its output says, its text (rendered once), and the whole description. */
export interface ActionObservation {
  observed: Observed;
  /** The line (or, for "describe", the description) the result's summary ends with. */
  text: string;
  /** observe "describe": the settled screen's whole description (refs, node ids), `text` its rendering. */
  screen?: ScreenDescriptionResult;
}

/** What observing costs, beyond its level: whether a description reads the pixels too. */
export interface ObserveOptions {
  /** observe "describe": read the pixels (OCR, icon names) too (default true, as describe_screen does). */
  withOcr?: boolean;
}

/** The refs of the screen before an action, to tell afterwards whether it changed. */
export function screenBefore(ctx: OperationContext, device: string): TreeRefs | undefined {
  return deviceRefs(ctx.hub, device).lastSeen;
}

/** After an action with observe "none": the screen may have changed unseen, so the next look cannot say whether it did. */
export function forgetScreen(ctx: OperationContext, device: string): void {
  deviceRefs(ctx.hub, device).lastSeen = undefined;
}

/**
 * The screen after an action: one tree read (several while a "describe" waits for it to settle), and a cheap
 * read of the app in front only when the tree says the app changed (see perception's `foregroundApp`).
 */
export async function observeAfterAction(
  ctx: OperationContext,
  device: string,
  level: Exclude<ObserveLevel, 'none'>,
  before: TreeRefs | undefined,
  options: ObserveOptions = {},
): Promise<ActionObservation> {
  const refs = deviceRefs(ctx.hub, device);
  let tree = await getUiTree(ctx.hub, device);
  if (level === 'describe') tree = await settledTree(ctx, device, tree);
  const after = refs.forTree(tree).fingerprint;
  const observed: Observed = { keyboardVisible: findNode(tree, 'keyboard') !== undefined };
  const app = await ctx.perception.foregroundApp(device, tree);
  if (app) observed.app = app;
  if (before !== undefined) observed.changed = before.fingerprint !== after;
  const alert = findNode(tree, 'alert');
  if (alert) observed.alert = alert.label || firstText(alert) || 'alert';
  if (level === 'describe') {
    // describe_screen's result for the settled tree just read (not read a third time).
    const screen = await ctx.perception.describeScreen(device, { includeOcrText: options.withOcr ?? true, tree });
    observed.screen = slimDescription(screen);
    return { observed, text: screen.text, screen };
  }
  return { observed, text: summaryLine(observed) };
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

/** What an action's summary ends with, from its output's `observed`: the description ("describe"), else the line. */
export function observedText(o: Observed): string {
  return o.screen ? renderDescription(o.screen) : summaryLine(o);
}

/** The line an action's summary ends with, from what it observed. */
export function summaryLine(o: Observed): string {
  const parts = [`Now: ${o.app ? (o.app.name ?? o.app.appId) : 'unknown app'}`];
  if (o.changed !== undefined) parts.push(o.changed ? 'screen changed' : 'screen unchanged');
  if (o.alert) parts.push(`alert "${o.alert}"`);
  if (o.keyboardVisible) parts.push('keyboard up');
  return `${parts.join('; ')}.`;
}

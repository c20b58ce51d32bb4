import { z } from 'zod';
import { centerOf } from './attributes';
import type { TreeNode } from './tree';
import { WdaError } from './wda-error';

/**
 * W3C `POST /actions` as WDA synthesizes it (WDA:Utilities/FBW3CActionsSynthesizer.m): pointer sources must
 * be touch; each pointerDown…pointerUp stroke becomes a tap (little movement) or a drag on the phone; key
 * sources type their keyDown values. Every failure is `500 unknown error` with an NSError-style message.
 */

export type Gesture =
  | { kind: 'tap'; x: number; y: number }
  | { kind: 'hold'; x: number; y: number; durationSec: number }
  /** `holdSec`: how long the finger stayed down before it first moved. */
  | { kind: 'drag'; fromX: number; fromY: number; toX: number; toY: number; holdSec: number }
  | { kind: 'pinch'; x: number; y: number; scale: number }
  | { kind: 'type'; text: string };

const ELEMENT_KEYS = ['element-6066-11e4-a52e-4f735466cecf', 'ELEMENT'] as const;

const origin = z.union([z.literal('viewport'), z.literal('pointer'), z.record(z.string(), z.unknown())]).optional();
const pointerItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pointerMove'), x: z.number().optional(), y: z.number().optional(), duration: z.number().min(0).optional(), origin }),
  z.object({ type: z.literal('pointerDown'), button: z.number().optional() }),
  z.object({ type: z.literal('pointerUp'), button: z.number().optional() }),
  z.object({ type: z.literal('pause'), duration: z.number().min(0).optional() }),
]);
const keyItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('keyDown'), value: z.string() }),
  z.object({ type: z.literal('keyUp'), value: z.string() }),
  z.object({ type: z.literal('pause'), duration: z.number().min(0).optional() }),
]);
const source = z.object({
  type: z.string(),
  id: z.string().optional(),
  parameters: z.object({ pointerType: z.string().optional() }).passthrough().optional(),
  actions: z.array(z.unknown()),
});
const body = z.object({ actions: z.array(source).min(1) });

/** Movement (points) under which a stroke is a tap rather than a drag. */
const TAP_SLOP = 10;
/** A stroke held in place this long (ms) is a long press. */
const HOLD_MS = 500;

export function actionsError(description: string): WdaError {
  return new WdaError(
    'unknown error',
    `Error Domain=com.facebook.WebDriverAgent Code=1 "${description}" UserInfo={NSLocalizedDescription=${description}}`,
  );
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'actions'}: ${issue.message}`).join('; ');
}

/** Translates a W3C actions body into phone gestures, in order. `resolve` maps an element id to its node. */
export function planActions(rawBody: unknown, resolve: (id: string) => TreeNode): Gesture[] {
  const parsed = body.safeParse(rawBody);
  if (!parsed.success) throw actionsError(`Invalid actions: ${describeIssues(parsed.error)}`);
  const gestures: Gesture[] = [];
  const perPointer: Gesture[][] = [];
  for (const input of parsed.data.actions) {
    const id = input.id ?? '';
    if (input.type === 'key') {
      const items = z.array(keyItem).safeParse(input.actions);
      if (!items.success) throw actionsError(`Invalid key actions for '${id}': ${describeIssues(items.error)}`);
      const text = items.data.flatMap((item) => (item.type === 'keyDown' ? [item.value] : [])).join('');
      if (text) gestures.push({ kind: 'type', text });
      continue;
    }
    if (input.type === 'none') continue;
    if (input.type !== 'pointer') throw actionsError(`Only actions of 'pointer' and 'key' types are supported. '${input.type}' is given instead for action with id ${id}`);
    const pointerType = input.parameters?.pointerType ?? 'mouse';
    if (pointerType !== 'touch') {
      throw actionsError(`Only pointer type 'touch' is supported. '${pointerType}' is given instead for action with id ${id}`);
    }
    const items = z.array(pointerItem).safeParse(input.actions);
    if (!items.success) throw actionsError(`Invalid pointer actions for '${id}': ${describeIssues(items.error)}`);
    const fingerStrokes = strokes(items.data, id, resolve);
    perPointer.push(fingerStrokes);
    gestures.push(...fingerStrokes);
  }
  const pinch = perPointer.length === 2 ? asPinch(perPointer[0], perPointer[1]) : null;
  return pinch ? [...gestures.filter((g) => g.kind === 'type'), pinch] : gestures;
}

/** Where a finger went down and where it lifted. */
function ends(g: Gesture): { from: [number, number]; to: [number, number] } | null {
  if (g.kind === 'tap' || g.kind === 'hold') return { from: [g.x, g.y], to: [g.x, g.y] };
  if (g.kind === 'drag') return { from: [g.fromX, g.fromY], to: [g.toX, g.toY] };
  return null;
}

/** Two fingers, one stroke each, whose distance changed: a pinch around the midpoint where they went down. */
function asPinch(first: Gesture[], second: Gesture[]): Gesture | null {
  if (first.length !== 1 || second.length !== 1) return null;
  const a = ends(first[0]);
  const b = ends(second[0]);
  if (!a || !b) return null;
  const before = Math.hypot(a.from[0] - b.from[0], a.from[1] - b.from[1]);
  const after = Math.hypot(a.to[0] - b.to[0], a.to[1] - b.to[1]);
  if (before < 1 || Math.abs(after - before) < TAP_SLOP) return null;
  return { kind: 'pinch', x: (a.from[0] + b.from[0]) / 2, y: (a.from[1] + b.from[1]) / 2, scale: Math.max(after, 1) / before };
}

function strokes(items: z.infer<typeof pointerItem>[], id: string, resolve: (id: string) => TreeNode): Gesture[] {
  const gestures: Gesture[] = [];
  let x: number | undefined;
  let y: number | undefined;
  let down: { x: number; y: number; elapsedMs: number; maxDistance: number; heldMs: number | null } | null = null;
  for (const item of items) {
    switch (item.type) {
      case 'pointerMove': {
        const duration = item.duration ?? 0;
        let baseX = 0;
        let baseY = 0;
        if (item.origin === 'pointer') {
          if (x === undefined || y === undefined) throw actionsError(`The pointer position of '${id}' is unknown, so an offset from it is impossible`);
          baseX = x;
          baseY = y;
        } else if (typeof item.origin === 'object') {
          const elementId = ELEMENT_KEYS.map((key) => item.origin && (item.origin as Record<string, unknown>)[key]).find((v) => typeof v === 'string');
          if (typeof elementId !== 'string') throw actionsError(`An unknown origin is given for action with id ${id}`);
          const center = centerOf(resolve(elementId).element.rect);
          baseX = center.x;
          baseY = center.y;
        }
        if (item.x === undefined || item.y === undefined) {
          if (item.origin === undefined || item.origin === 'viewport' || item.origin === 'pointer') {
            throw actionsError(`Both 'x' and 'y' are mandatory for 'pointerMove' in action with id ${id}`);
          }
        }
        x = baseX + (item.x ?? 0);
        y = baseY + (item.y ?? 0);
        if (down) {
          down.maxDistance = Math.max(down.maxDistance, Math.hypot(x - down.x, y - down.y));
          if (down.heldMs === null && down.maxDistance >= TAP_SLOP) down.heldMs = down.elapsedMs;
          down.elapsedMs += duration;
        }
        break;
      }
      case 'pointerDown':
        if (x === undefined || y === undefined) throw actionsError(`The pointer position of '${id}' must be set by 'pointerMove' before 'pointerDown'`);
        if (down) throw actionsError(`'pointerDown' follows another 'pointerDown' in action with id ${id}`);
        down = { x, y, elapsedMs: 0, maxDistance: 0, heldMs: null };
        break;
      case 'pause':
        if (down) down.elapsedMs += item.duration ?? 0;
        break;
      case 'pointerUp': {
        if (!down || x === undefined || y === undefined) throw actionsError(`'pointerUp' without 'pointerDown' in action with id ${id}`);
        if (down.maxDistance < TAP_SLOP && down.elapsedMs < HOLD_MS) gestures.push({ kind: 'tap', x: down.x, y: down.y });
        else if (down.maxDistance < TAP_SLOP) gestures.push({ kind: 'hold', x: down.x, y: down.y, durationSec: down.elapsedMs / 1000 });
        else gestures.push({ kind: 'drag', fromX: down.x, fromY: down.y, toX: x, toY: y, holdSec: (down.heldMs ?? 0) / 1000 });
        down = null;
        break;
      }
    }
  }
  if (down) throw actionsError(`The pointer of '${id}' is still down at the end of the chain; add 'pointerUp'`);
  return gestures;
}

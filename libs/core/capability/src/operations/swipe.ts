import { z } from 'zod';
import { resolveRef, SWIPE_DIRECTIONS, swipe, type SwipeDirection } from '@apex/hub';
import { invalidArgument } from '@apex/errors';
import type { Point, Rect } from '@apex/port';
import { defineOperation } from '../define-operation';
import { MAX_COORDINATE, MAX_SWIPE_DURATION_MS, MAX_SWIPE_HOLD_MS, MIN_SWIPE_DURATION_MS } from '../limits';
import { deviceField, pointOut, pointSchema, refField } from '../schemas';

/** A swipe inside an element covers this share of its extent along the way the finger moves, centred on it. */
const IN_ELEMENT_SHARE = 0.6;

export const swipeOperation = defineOperation({
  name: 'swipe',
  title: 'Swipe',
  description:
    "Swipes, in points: `direction` (the finger's way: up reveals what is below) from `start` over `distance`, or inside element `ref`; or `from` → `to`. `holdMs` drags and drops.",
  input: z.strictObject({
    device: deviceField,
    direction: z.enum(SWIPE_DIRECTIONS).optional(),
    ref: refField,
    start: pointSchema.optional().describe('default: screen center'),
    distance: z.number().positive().max(MAX_COORDINATE).optional().describe('default half the screen'),
    from: pointSchema.optional(),
    to: pointSchema.optional(),
    durationMs: z.number().int().min(MIN_SWIPE_DURATION_MS).max(MAX_SWIPE_DURATION_MS).optional().describe('default 300'),
    holdMs: z.number().int().min(0).max(MAX_SWIPE_HOLD_MS).optional(),
  }),
  output: z.object({ direction: z.enum(SWIPE_DIRECTIONS).optional(), from: pointOut.optional(), to: pointOut.optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, direction, ref, start, distance, from, to, durationMs, holdMs }) => {
    if (from && to && direction === undefined && start === undefined && distance === undefined && ref === undefined) {
      await swipe(ctx.hub, device, { from, to, durationMs, holdMs });
      return { from, to };
    }
    if (direction !== undefined && ref !== undefined && start === undefined && from === undefined && to === undefined) {
      const element = await resolveRef(ctx.hub, device, ref);
      const path = withinElement(element.bounds, direction, distance);
      await swipe(ctx.hub, device, { ...path, durationMs, holdMs });
      return { direction, ...path };
    }
    if (direction !== undefined && ref === undefined && from === undefined && to === undefined) {
      await swipe(ctx.hub, device, { direction, start, distance, durationMs, holdMs });
      return { direction };
    }
    throw invalidArgument(
      'Invalid swipe arguments: give either `direction` (with optional `start` and `distance`, or `ref`) or both `from` and `to`.',
      [{ path: direction === undefined ? 'direction' : ref !== undefined ? 'ref' : 'from', message: 'give either direction or from and to' }],
      'Example: {"direction":"up"}, {"direction":"up","ref":"e3"} or {"from":{"x":200,"y":600},"to":{"x":200,"y":200}}.',
    );
  },
  summarize: (s) => (s.direction ? `Swiped ${s.direction}.` : `Swiped from (${s.from?.x}, ${s.from?.y}) to (${s.to?.x}, ${s.to?.y}).`),
});

/** A drag centred on the element, kept inside it, the finger moving `direction`. */
function withinElement(bounds: Rect, direction: SwipeDirection, distance?: number): { from: Point; to: Point } {
  const horizontal = direction === 'left' || direction === 'right';
  const extent = horizontal ? bounds.width : bounds.height;
  const half = Math.min(distance ?? extent * IN_ELEMENT_SHARE, extent * 0.9) / 2;
  const sign = direction === 'right' || direction === 'down' ? 1 : -1;
  const cx = bounds.x + bounds.width / 2;
  const cy = bounds.y + bounds.height / 2;
  const round = (v: number) => Math.round(v * 10) / 10;
  return horizontal
    ? { from: { x: round(cx - sign * half), y: round(cy) }, to: { x: round(cx + sign * half), y: round(cy) } }
    : { from: { x: round(cx), y: round(cy - sign * half) }, to: { x: round(cx), y: round(cy + sign * half) } };
}

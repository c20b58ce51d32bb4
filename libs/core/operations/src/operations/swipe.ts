import { z } from 'zod';
import { SWIPE_DIRECTIONS, swipe } from '@apex/hub';
import { invalidArgument } from '@apex/errors';
import { defineOperation } from '../define-operation';
import { MAX_COORDINATE, MAX_SWIPE_DURATION_MS, MAX_SWIPE_HOLD_MS, MIN_SWIPE_DURATION_MS } from '../limits';
import { deviceField, pointOut, pointSchema } from '../schemas';

export const swipeOperation = defineOperation({
  name: 'swipe',
  title: 'Swipe',
  description:
    'Swipes (drags) on the screen, in points: either `direction` (the finger moves that way: up reveals what is below; optional `start`, `distance`) or `from` and `to`. Scrolls lists, changes pages; `holdMs` for drag and drop.',
  input: z.strictObject({
    device: deviceField,
    direction: z.enum(SWIPE_DIRECTIONS).optional(),
    start: pointSchema.optional().describe('default: screen center'),
    distance: z.number().positive().max(MAX_COORDINATE).optional().describe('points; default half the screen'),
    from: pointSchema.optional(),
    to: pointSchema.optional(),
    durationMs: z.number().int().min(MIN_SWIPE_DURATION_MS).max(MAX_SWIPE_DURATION_MS).optional().describe('default 300'),
    holdMs: z.number().int().min(0).max(MAX_SWIPE_HOLD_MS).optional().describe('hold before moving'),
  }),
  output: z.object({ direction: z.enum(SWIPE_DIRECTIONS).optional(), from: pointOut.optional(), to: pointOut.optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (ctx, { device, direction, start, distance, from, to, durationMs, holdMs }) => {
    if (from && to && direction === undefined && start === undefined && distance === undefined) {
      await swipe(ctx.hub, device, { from, to, durationMs, holdMs });
      return { from, to };
    }
    if (direction !== undefined && from === undefined && to === undefined) {
      await swipe(ctx.hub, device, { direction, start, distance, durationMs, holdMs });
      return { direction };
    }
    throw invalidArgument(
      'Invalid swipe arguments: give either `direction` (with optional `start` and `distance`) or both `from` and `to`.',
      [{ path: direction === undefined ? 'direction' : 'from', message: 'give either direction or from and to' }],
      'Example: {"direction":"up"} or {"from":{"x":200,"y":600},"to":{"x":200,"y":200}}.',
    );
  },
  summarize: (s) => (s.direction ? `Swiped ${s.direction}.` : `Swiped from (${s.from?.x}, ${s.from?.y}) to (${s.to?.x}, ${s.to?.y}).`),
});

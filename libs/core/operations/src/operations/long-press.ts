import { z } from 'zod';
import { DEFAULT_LONG_PRESS_MS, longPress } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_LONG_PRESS_MS, MIN_LONG_PRESS_MS } from '../limits';
import { coordinate, deviceField, pointOut } from '../schemas';

export const longPressOperation = defineOperation({
  name: 'long_press',
  title: 'Long press',
  description: 'Touches and holds a point (like tap): opens context menus, previews, edit menus.',
  input: z.strictObject({
    device: deviceField,
    x: coordinate.describe('points from the left'),
    y: coordinate.describe('points from the top'),
    durationMs: z.number().int().min(MIN_LONG_PRESS_MS).max(MAX_LONG_PRESS_MS).optional().describe(`default ${DEFAULT_LONG_PRESS_MS}`),
  }),
  output: z.object({ pressed: pointOut, durationMs: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (ctx, { device, x, y, durationMs = DEFAULT_LONG_PRESS_MS }) => {
    await longPress(ctx.hub, device, { x, y }, durationMs);
    return { pressed: { x, y }, durationMs };
  },
  summarize: ({ pressed, durationMs }) => `Long-pressed (${pressed.x}, ${pressed.y}) for ${durationMs} ms.`,
});

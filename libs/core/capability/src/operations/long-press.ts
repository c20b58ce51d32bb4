import { z } from 'zod';
import { DEFAULT_LONG_PRESS_MS, longPress } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_LONG_PRESS_MS, MIN_LONG_PRESS_MS } from '../limits';
import { coordinate, deviceField, pointOut, refField } from '../schemas';
import { actionTarget } from '../target';

export const longPressOperation = defineOperation({
  name: 'long_press',
  title: 'Long press',
  description: 'Touches and holds (like tap): context menus, previews, edit menus.',
  input: z.strictObject({
    device: deviceField,
    ref: refField,
    x: coordinate.optional(),
    y: coordinate.optional(),
    durationMs: z.number().int().min(MIN_LONG_PRESS_MS).max(MAX_LONG_PRESS_MS).optional().describe(`default ${DEFAULT_LONG_PRESS_MS}`),
  }),
  output: z.object({ pressed: pointOut, durationMs: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'gestures',
  acts: true,
  handler: async (ctx, { device, durationMs = DEFAULT_LONG_PRESS_MS, ...where }) => {
    const { point } = await actionTarget(ctx, device, where);
    await longPress(ctx.hub, device, point, durationMs);
    return { pressed: point, durationMs };
  },
  summarize: ({ pressed, durationMs }) => `Long-pressed (${pressed.x}, ${pressed.y}) for ${durationMs} ms.`,
});

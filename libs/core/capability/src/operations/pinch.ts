import { z } from 'zod';
import { DEFAULT_PINCH_MS, pinch } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_PINCH_DURATION_MS, MAX_PINCH_SCALE, MIN_PINCH_DURATION_MS, MIN_PINCH_SCALE } from '../limits';
import { deviceField, pointOut, pointSchema } from '../schemas';

export const pinchOperation = defineOperation({
  name: 'pinch',
  title: 'Pinch',
  description: 'Two-finger pinch around `center`: `scale` > 1 zooms in, < 1 zooms out.',
  input: z.strictObject({
    device: deviceField,
    scale: z.number().min(MIN_PINCH_SCALE).max(MAX_PINCH_SCALE).describe('e.g. 2 or 0.5'),
    center: pointSchema.optional().describe('default: screen center'),
    durationMs: z.number().int().min(MIN_PINCH_DURATION_MS).max(MAX_PINCH_DURATION_MS).optional().describe(`default ${DEFAULT_PINCH_MS}`),
  }),
  output: z.object({ center: pointOut, scale: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'gestures',
  acts: true,
  handler: async (ctx, { device, scale, center, durationMs }) => ({
    center: await pinch(ctx.hub, device, { scale, center, durationMs }),
    scale,
  }),
  summarize: ({ center, scale }) => `Pinched ×${scale} around (${center.x}, ${center.y}).`,
});

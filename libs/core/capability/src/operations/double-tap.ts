import { z } from 'zod';
import { doubleTap } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { coordinate, deviceField, pointOut, refField } from '../schemas';
import { actionTarget } from '../target';

export const doubleTapOperation = defineOperation({
  name: 'double_tap',
  title: 'Double tap',
  description: 'Taps twice quickly (like tap): zooms photos and maps, selects a word.',
  input: z.strictObject({ device: deviceField, ref: refField, x: coordinate.optional(), y: coordinate.optional() }),
  output: z.object({ doubleTapped: pointOut }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'gestures',
  acts: true,
  handler: async (ctx, { device, ...where }) => {
    const { point } = await actionTarget(ctx, device, where);
    await doubleTap(ctx.hub, device, point);
    return { doubleTapped: point };
  },
  summarize: ({ doubleTapped }) => `Double-tapped (${doubleTapped.x}, ${doubleTapped.y}).`,
});

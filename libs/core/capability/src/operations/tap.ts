import { z } from 'zod';
import { tap } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { coordinate, deviceField, pointOut, refField } from '../schemas';
import { actionTarget } from '../target';

export const tapOperation = defineOperation({
  name: 'tap',
  title: 'Tap',
  description: "Taps an element by `ref`, or a point `x`,`y` (points from top-left; a default screenshot's pixels are points).",
  input: z.strictObject({ device: deviceField, ref: refField, x: coordinate.optional(), y: coordinate.optional() }),
  output: z.object({ tapped: pointOut }),
  // Ordinary user input: not destructive in itself (terminate_app is the tool that loses state).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, ...where }) => {
    const { point } = await actionTarget(ctx, device, where);
    await tap(ctx.hub, device, point);
    return { tapped: point };
  },
  summarize: ({ tapped }) => `Tapped (${tapped.x}, ${tapped.y}).`,
});

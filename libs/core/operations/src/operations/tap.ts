import { z } from 'zod';
import { tap } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { coordinate, deviceField } from '../schemas';

export const tapOperation = defineOperation({
  name: 'tap',
  title: 'Tap',
  description:
    'Taps one point of the screen, in points from the top-left. Get the point from describe_screen, find_text or find_icon (their `center`), or from a default screenshot (1 pixel = 1 point).',
  input: z.strictObject({ device: deviceField, x: coordinate.describe('points from the left'), y: coordinate.describe('points from the top') }),
  output: z.object({ tapped: z.object({ x: z.number(), y: z.number() }) }),
  // Ordinary user input: not destructive in itself (terminate_app is the tool that loses state).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (ctx, { device, x, y }) => {
    await tap(ctx.hub, device, { x, y });
    return { tapped: { x, y } };
  },
  summarize: ({ tapped }) => `Tapped (${tapped.x}, ${tapped.y}).`,
});

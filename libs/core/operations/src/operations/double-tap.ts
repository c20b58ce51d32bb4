import { z } from 'zod';
import { doubleTap } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { coordinate, deviceField, pointOut } from '../schemas';

export const doubleTapOperation = defineOperation({
  name: 'double_tap',
  title: 'Double tap',
  description: 'Taps a point twice quickly (like tap): zooms photos and maps, selects a word.',
  input: z.strictObject({ device: deviceField, x: coordinate.describe('points from the left'), y: coordinate.describe('points from the top') }),
  output: z.object({ doubleTapped: pointOut }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (ctx, { device, x, y }) => {
    await doubleTap(ctx.hub, device, { x, y });
    return { doubleTapped: { x, y } };
  },
  summarize: ({ doubleTapped }) => `Double-tapped (${doubleTapped.x}, ${doubleTapped.y}).`,
});

import { z } from 'zod';
import { setOrientation } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { ORIENTATIONS, deviceField } from '../schemas';

export const setOrientationOperation = defineOperation({
  name: 'set_orientation',
  title: 'Set orientation',
  description: 'Rotates the screen; coordinates then use the rotated `screen`.',
  input: z.strictObject({ device: deviceField, orientation: z.enum(ORIENTATIONS) }),
  output: z.object({ orientation: z.enum(ORIENTATIONS), screen: z.object({ width: z.number(), height: z.number() }) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  acts: true,
  handler: async (ctx, { device, orientation }) => {
    await setOrientation(ctx.hub, device, orientation);
    const { width, height } = await ctx.hub.screen(device);
    return { orientation, screen: { width, height } };
  },
  summarize: ({ orientation, screen }) => `Now ${orientation}: the screen is ${screen.width}×${screen.height} points.`,
});

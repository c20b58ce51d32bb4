import { z } from 'zod';
import { setAppearance } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { APPEARANCES, deviceField } from '../schemas';

export const setAppearanceOperation = defineOperation({
  name: 'set_appearance',
  title: 'Set appearance',
  description: 'Switches the whole device to light or dark mode.',
  input: z.strictObject({ device: deviceField, appearance: z.enum(APPEARANCES) }),
  output: z.object({ appearance: z.enum(APPEARANCES) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  acts: true,
  handler: async (ctx, { device, appearance }) => {
    await setAppearance(ctx.hub, device, appearance);
    return { appearance };
  },
  summarize: ({ appearance }) => `Appearance: ${appearance}.`,
});

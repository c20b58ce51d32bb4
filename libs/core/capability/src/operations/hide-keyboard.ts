import { z } from 'zod';
import { hideKeyboard } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const hideKeyboardOperation = defineOperation({
  name: 'hide_keyboard',
  title: 'Hide keyboard',
  description: 'Dismisses the on-screen keyboard, if shown, uncovering what it hid.',
  input: z.strictObject({ device: deviceField }),
  output: z.object({ keyboardHidden: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device }) => {
    await hideKeyboard(ctx.hub, device);
    return { keyboardHidden: true as const };
  },
  summarize: () => 'The keyboard is hidden.',
});

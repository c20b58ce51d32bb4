import { z } from 'zod';
import { pressButton } from '@apex/hub';
import { HARDWARE_BUTTONS } from '@apex/port';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const pressButtonOperation = defineOperation({
  name: 'press_button',
  title: 'Press button',
  description: 'Presses a hardware button. `back`, `recents` (app switcher): Android only.',
  input: z.strictObject({ device: deviceField, button: z.enum(HARDWARE_BUTTONS) }),
  output: z.object({ pressed: z.enum(HARDWARE_BUTTONS) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, button }) => {
    await pressButton(ctx.hub, device, button);
    return { pressed: button };
  },
  summarize: (s) => `Pressed ${s.pressed}.`,
});

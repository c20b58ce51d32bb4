import { z } from 'zod';
import { setLocked } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const setLockOperation = defineOperation({
  name: 'set_lock',
  title: 'Lock or unlock',
  description: 'Locks or unlocks the screen. No passcode support: a passcode-protected phone stays locked.',
  input: z.strictObject({ device: deviceField, locked: z.boolean() }),
  output: z.object({ locked: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  acts: true,
  handler: async (ctx, { device, locked }) => {
    await setLocked(ctx.hub, device, locked);
    return { locked };
  },
  summarize: ({ locked }) => (locked ? 'Locked the screen.' : 'Unlocked the screen.'),
});

import { z } from 'zod';
import { backgroundApp } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_BACKGROUND_SECONDS } from '../limits';
import { deviceField } from '../schemas';

export const backgroundAppOperation = defineOperation({
  name: 'background_app',
  title: 'Background app',
  description: 'Sends the foreground app to the background (home screen shows); with `seconds`, brings it back after that long.',
  input: z.strictObject({
    device: deviceField,
    seconds: z.number().min(0).max(MAX_BACKGROUND_SECONDS).optional().describe('come back after this long'),
  }),
  output: z.object({ returned: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'apps',
  acts: true,
  handler: async (ctx, { device, seconds }) => {
    await backgroundApp(ctx.hub, device, seconds);
    return { returned: seconds !== undefined };
  },
  summarize: (s) => (s.returned ? 'The app went to the background and came back.' : 'The app is in the background.'),
});

import { z } from 'zod';
import { resetApp } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const resetAppOperation = defineOperation({
  name: 'reset_app',
  title: 'Reset app',
  description: "Clears an app's data and permissions; it stays installed and next launches as on first launch.",
  input: z.strictObject({ device: deviceField, appId: appIdField }),
  output: z.object({ appId: z.string(), reset: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  toolset: 'apps',
  handler: async (ctx, { device, appId }) => {
    await resetApp(ctx.hub, device, appId);
    return { appId, reset: true as const };
  },
  summarize: (s) => `Reset ${s.appId}: its data and permissions are cleared.`,
});

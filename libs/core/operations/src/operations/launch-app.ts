import { z } from 'zod';
import { launchApp } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const launchAppOperation = defineOperation({
  name: 'launch_app',
  title: 'Launch app',
  description: 'Opens an installed app, or brings it to the foreground if it is running. Find app ids with list_apps.',
  input: z.strictObject({ device: deviceField, appId: appIdField }),
  output: z.object({ appId: z.string(), launched: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, appId }) => {
    await launchApp(ctx.hub, device, appId);
    return { appId, launched: true as const };
  },
  summarize: (s) => `Launched ${s.appId}; it is in the foreground.`,
});

import { z } from 'zod';
import { uninstallApp } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const uninstallAppOperation = defineOperation({
  name: 'uninstall_app',
  title: 'Uninstall app',
  description: 'Removes an installed app and its data. System apps cannot be removed.',
  input: z.strictObject({ device: deviceField, appId: appIdField }),
  output: z.object({ appId: z.string(), uninstalled: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  toolset: 'apps',
  handler: async (ctx, { device, appId }) => {
    await uninstallApp(ctx.hub, device, appId);
    return { appId, uninstalled: true as const };
  },
  summarize: (s) => `Uninstalled ${s.appId}.`,
});

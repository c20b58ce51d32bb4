import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { launchApp, launchAppNamed } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { appIdField, appNameField, deviceField } from '../schemas';

export const launchAppOperation = defineOperation({
  name: 'launch_app',
  title: 'Launch app',
  description:
    'Opens an installed app (or brings it to the front) by `appId` or `name`.',
  input: z.strictObject({ device: deviceField, appId: appIdField.optional(), name: appNameField.optional() }),
  output: z.object({ appId: z.string(), launched: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, appId, name }) => {
    if ((appId === undefined) === (name === undefined)) {
      throw invalidArgument(
        appId === undefined ? 'Say which app to launch: give appId or name.' : 'Give appId or name, not both.',
        [{ path: appId === undefined ? 'appId' : 'name', message: 'give exactly one of appId and name' }],
        'Example: {"name":"Settings"} or {"appId":"com.apple.Preferences"}.',
      );
    }
    if (appId !== undefined) {
      await launchApp(ctx.hub, device, appId);
      return { appId, launched: true as const };
    }
    return { appId: await launchAppNamed(ctx.hub, device, name as string), launched: true as const };
  },
  summarize: (s) => `Launched ${s.appId}; it is in the foreground.`,
});

import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { launchApp, launchAppNamed } from '@apex/hub';
import type { LaunchOptions } from '@apex/port';
import { defineOperation } from '../define-operation';
import { LOCALE_PATTERN, MAX_ENV_NAME_LENGTH, MAX_LAUNCH_ARGUMENTS, MAX_LAUNCH_ENVIRONMENT, MAX_LAUNCH_VALUE_LENGTH } from '../limits';
import { appIdField, appNameField, deviceField } from '../schemas';

const launchValue = z.string().max(MAX_LAUNCH_VALUE_LENGTH);

export const launchAppOperation = defineOperation({
  name: 'launch_app',
  title: 'Launch app',
  description:
    'Opens an installed app (or brings it to front) by `appId` or `name`; `arguments`, `environment` or `locale` (e.g. fr-FR) restart it with them.',
  input: z.strictObject({
    device: deviceField,
    appId: appIdField.optional(),
    name: appNameField.optional(),
    arguments: z.array(launchValue).max(MAX_LAUNCH_ARGUMENTS).optional(),
    environment: z
      .record(z.string().max(MAX_ENV_NAME_LENGTH).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name such as API_URL'), launchValue)
      .refine((env) => Object.keys(env).length <= MAX_LAUNCH_ENVIRONMENT, `must have at most ${MAX_LAUNCH_ENVIRONMENT} variables`)
      .optional(),
    locale: z.string().regex(LOCALE_PATTERN, 'must be a language tag such as fr or fr-FR').optional(),
  }),
  output: z.object({ appId: z.string(), launched: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, appId, name, arguments: args, environment, locale }) => {
    if ((appId === undefined) === (name === undefined)) {
      throw invalidArgument(
        appId === undefined ? 'Say which app to launch: give appId or name.' : 'Give appId or name, not both.',
        [{ path: appId === undefined ? 'appId' : 'name', message: 'give exactly one of appId and name' }],
        'Example: {"name":"Settings"} or {"appId":"com.apple.Preferences"}.',
      );
    }
    const options: LaunchOptions = {
      ...(args !== undefined ? { arguments: args } : {}),
      ...(environment !== undefined ? { environment } : {}),
      ...(locale !== undefined ? { locale } : {}),
    };
    if (appId !== undefined) {
      await launchApp(ctx.hub, device, appId, options);
      return { appId, launched: true as const };
    }
    return { appId: await launchAppNamed(ctx.hub, device, name as string, options), launched: true as const };
  },
  summarize: (s) => `Launched ${s.appId}; it is in the foreground.`,
});

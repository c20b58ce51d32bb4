import { z } from 'zod';
import { setPermission } from '@apex/hub';
import { PERMISSIONS } from '@apex/port';
import { defineOperation } from '../define-operation';
import { appIdField, deviceField } from '../schemas';

export const PERMISSION_STATES = ['granted', 'denied', 'unset'] as const;

export const setPermissionOperation = defineOperation({
  name: 'set_permission',
  title: 'Set permission',
  description: "Grants or denies an app a permission, or unsets it (the app asks again). Changing it may restart the app.",
  input: z.strictObject({
    device: deviceField,
    appId: appIdField,
    permission: z.enum(PERMISSIONS),
    state: z.enum(PERMISSION_STATES),
  }),
  output: z.object({ appId: z.string(), permission: z.string(), state: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  handler: async (ctx, { device, appId, permission, state }) => {
    await setPermission(ctx.hub, device, appId, permission, state);
    return { appId, permission, state };
  },
  summarize: (s) => `${s.appId}: ${s.permission} ${s.state}.`,
});

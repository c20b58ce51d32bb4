import { z } from 'zod';
import { listApps } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const listAppsOperation = defineOperation({
  name: 'list_apps',
  title: 'List apps',
  description:
    'Apps: `appId`, name, running. `complete: false`: the device named only its running apps.',
  input: z.strictObject({ device: deviceField }),
  output: z.object({
    apps: z.array(z.object({ appId: z.string(), name: z.string().optional(), running: z.boolean().optional() })),
    complete: z.boolean(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'apps',
  handler: async (ctx, { device }) => listApps(ctx.hub, device),
  summarize: ({ apps }) =>
    `${apps.length} app(s): ${apps.map((a) => `${a.name ? `${a.name} ` : ''}(${a.appId})${a.running ? ' running' : ''}`).join(', ')}`,
});

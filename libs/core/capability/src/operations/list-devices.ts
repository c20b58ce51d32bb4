import { z } from 'zod';
import { listDevices } from '@apex/hub';
import { defineOperation } from '../define-operation';

export const deviceSummary = z.object({
  id: z.string(),
  platform: z.enum(['ios', 'android']),
  state: z.enum(['online', 'offline', 'busy', 'preparing']),
  name: z.string(),
  owner: z.object({ pid: z.number().int(), host: z.string(), since: z.string() }).optional(),
  note: z.string().optional(),
  /** The other Apex node that holds it and answers for it (a cluster's listAll); operations are sent there. */
  node: z.object({ id: z.string(), url: z.string() }).optional(),
});

export const listDevicesOperation = defineOperation({
  name: 'list_devices',
  title: 'List devices',
  description:
    'Lists the connected devices: id, platform, state. Other tools take the id as `device` (optional with one device).',
  input: z.strictObject({}),
  output: z.object({ devices: z.array(deviceSummary) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'devices',
  handler: async (ctx) => ({
    devices: listDevices(ctx.hub),
  }),
  summarize: ({ devices }) =>
    devices.length === 0
      ? 'No devices are connected.'
      : `${devices.length} device(s): ${devices.map((d) => `${d.id} "${d.name}" (${d.platform}, ${d.state}${d.note ? `: ${d.note}` : ''}${d.node ? `, on node ${d.node.url}` : ''})`).join('; ')}`,
});

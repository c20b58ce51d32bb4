import { z } from 'zod';
import { deviceStatus } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const deviceStatusOperation = defineOperation({
  name: 'device_status',
  title: 'Device status',
  description:
    'One device: state, model, OS, screen (points, scale), orientation, foreground app, battery, lock.',
  input: z.strictObject({ device: deviceField }),
  output: z.object({
    id: z.string(),
    state: z.enum(['online', 'offline', 'busy', 'preparing']),
    platform: z.enum(['ios', 'android']),
    name: z.string().describe('name in Apex'),
    deviceName: z.string().optional().describe('name the device gives itself'),
    model: z.string().optional(),
    osVersion: z.string().optional(),
    screen: z.object({ width: z.number(), height: z.number(), scale: z.number() }),
    orientation: z.enum(['portrait', 'landscape']).optional(),
    foregroundApp: z.object({ appId: z.string(), name: z.string().optional() }).optional(),
    battery: z.object({ level: z.number(), state: z.enum(['unknown', 'unplugged', 'charging', 'full']) }).optional(),
    locked: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'devices',
  handler: async (ctx, { device }) => deviceStatus(ctx.hub, device),
  summarize: (s) =>
    [
      `${s.id}: ${s.state}`,
      [s.model, s.osVersion && `${s.platform === 'ios' ? 'iOS' : 'Android'} ${s.osVersion}`].filter(Boolean).join(', '),
      `screen ${s.screen.width}×${s.screen.height} pt @${s.screen.scale}x`,
      s.orientation,
      s.foregroundApp && `foreground ${s.foregroundApp.appId}`,
      s.locked === undefined ? undefined : s.locked ? 'locked' : 'unlocked',
    ]
      .filter(Boolean)
      .join('; '),
});

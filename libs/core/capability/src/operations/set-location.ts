import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { setLocation } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const setLocationOperation = defineOperation({
  name: 'set_location',
  title: 'Set location',
  description: "Simulates the device's GPS position (degrees, metres), or `{clear:true}` to stop simulating it.",
  input: z.strictObject({
    device: deviceField,
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    altitude: z.number().min(-500).max(100_000).optional().describe('metres'),
    clear: z.literal(true).optional(),
  }),
  output: z.object({ latitude: z.number().optional(), longitude: z.number().optional(), altitude: z.number().optional(), cleared: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  handler: async (ctx, { device, latitude, longitude, altitude, clear }) => {
    if (clear) {
      const extra = latitude !== undefined ? 'latitude' : longitude !== undefined ? 'longitude' : altitude !== undefined ? 'altitude' : undefined;
      if (extra) throw invalidArgument('Give a position or clear, not both.', [{ path: extra, message: 'not allowed with clear' }], 'Example: {"latitude":48.8584,"longitude":2.2945} or {"clear":true}.');
      await setLocation(ctx.hub, device, undefined);
      return { cleared: true };
    }
    if (latitude === undefined || longitude === undefined) {
      const missing = latitude === undefined ? 'latitude' : 'longitude';
      throw invalidArgument('Give latitude and longitude, or clear.', [{ path: missing, message: 'is required unless clear is true' }], 'Example: {"latitude":48.8584,"longitude":2.2945} or {"clear":true}.');
    }
    await setLocation(ctx.hub, device, { latitude, longitude, ...(altitude !== undefined ? { altitude } : {}) });
    return { latitude, longitude, ...(altitude !== undefined ? { altitude } : {}), cleared: false };
  },
  summarize: (s) => (s.cleared ? 'The simulated location is cleared.' : `The device is at ${s.latitude}, ${s.longitude}.`),
});

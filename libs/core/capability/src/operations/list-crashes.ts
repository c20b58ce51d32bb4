import { z } from 'zod';
import { listCrashReports } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { sinceField, sinceInstant } from '../evidence/since';
import { MAX_CRASHES_LISTED } from '../limits';
import { appIdValue, deviceField } from '../schemas';

export const listCrashesOperation = defineOperation({
  name: 'list_crashes',
  title: 'List crash reports',
  description: `The crash reports the device keeps, newest last (at most ${MAX_CRASHES_LISTED}): id, app, time, exception. Read one with get_crash.`,
  input: z.strictObject({ device: deviceField, app: appIdValue.optional(), since: sinceField }),
  output: z.object({
    crashes: z.array(z.object({ id: z.string(), app: z.string(), time: z.string(), exception: z.string() })),
    omitted: z.number(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'evidence',
  handler: async (ctx, { device, app, since }) => {
    const sinceMs = sinceInstant(ctx.hub, device, since);
    // The device applies `since` at its reports' own time resolution; the app is checked again here.
    const all = (await listCrashReports(ctx.hub, device, { app, sinceMs })).filter((c) => app === undefined || c.app === app).sort((a, b) => a.time - b.time);
    const shown = all.slice(-MAX_CRASHES_LISTED);
    return {
      crashes: shown.map((c) => ({ id: c.id, app: c.app, time: new Date(c.time).toISOString(), exception: c.exception })),
      omitted: all.length - shown.length,
    };
  },
  summarize: ({ crashes }) =>
    crashes.length === 0 ? 'No crash reports.' : `${crashes.length} crash report(s): ${crashes.map((c) => `${c.id} (${c.app}, ${c.exception})`).join('; ')}`,
});

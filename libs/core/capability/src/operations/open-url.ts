import { z } from 'zod';
import { openUrl } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField, urlField } from '../schemas';

export const openUrlOperation = defineOperation({
  name: 'open_url',
  title: 'Open URL',
  description: 'Opens a web address in the browser, or a deep link in its app (maps://, prefs:).',
  input: z.strictObject({ device: deviceField, url: urlField }),
  output: z.object({ opened: z.string() }),
  // Reaches the web, and a deep link may act in its app: not idempotent, open world.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: 'apps',
  acts: true,
  handler: async (ctx, { device, url }) => {
    await openUrl(ctx.hub, device, url);
    return { opened: url };
  },
  summarize: ({ opened }) => `Opened ${opened}.`,
});

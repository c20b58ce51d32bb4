import { z } from 'zod';
import { getClipboard } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { deviceField } from '../schemas';

export const getClipboardOperation = defineOperation({
  name: 'get_clipboard',
  title: 'Get clipboard',
  description: "Reads the device's clipboard as plain text ('' when empty).",
  input: z.strictObject({ device: deviceField }),
  output: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  handler: async (ctx, { device }) => ({ text: await getClipboard(ctx.hub, device) }),
  summarize: ({ text }) => (text === '' ? 'The clipboard is empty.' : `Clipboard: ${JSON.stringify(text)}`),
});

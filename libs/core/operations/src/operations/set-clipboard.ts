import { z } from 'zod';
import { setClipboard } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_CLIPBOARD_TEXT_LENGTH } from '../limits';
import { deviceField } from '../schemas';

export const setClipboardOperation = defineOperation({
  name: 'set_clipboard',
  title: 'Set clipboard',
  description: "Replaces the device's clipboard with plain text, to paste with a long press → Paste.",
  input: z.strictObject({ device: deviceField, text: z.string().max(MAX_CLIPBOARD_TEXT_LENGTH).describe('plain text') }),
  output: z.object({ characters: z.number() }),
  // What the clipboard held before is gone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, text }) => {
    await setClipboard(ctx.hub, device, text);
    return { characters: [...text].length };
  },
  summarize: ({ characters }) => `Clipboard set (${characters} characters).`,
});

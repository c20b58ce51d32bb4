import { z } from 'zod';
import { setClipboard } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_CLIPBOARD_TEXT_LENGTH } from '../limits';
import { deviceField } from '../schemas';
import { secretField } from '../secrets';

export const setClipboardOperation = defineOperation({
  name: 'set_clipboard',
  title: 'Set clipboard',
  description: 'Replaces the clipboard with plain text (paste: long_press a field, then Paste).',
  input: z.strictObject({ device: deviceField, text: secretField(z.string().max(MAX_CLIPBOARD_TEXT_LENGTH).describe('plain text')) }),
  output: z.object({ characters: z.number() }),
  // What the clipboard held before is gone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  toolset: 'environment',
  handler: async (ctx, { device, text }) => {
    await setClipboard(ctx.hub, device, text);
    return { characters: [...text].length };
  },
  summarize: ({ characters }) => `Clipboard set (${characters} characters).`,
});

import { z } from 'zod';
import { inputText } from '@apex/hub';
import { defineOperation } from '../define-operation';
import { MAX_TYPED_TEXT_LENGTH } from '../limits';
import { deviceField, typedTextField } from '../schemas';

export const inputTextOperation = defineOperation({
  name: 'input_text',
  title: 'Type text',
  description:
    'Types text into the focused text field (tap the field first). Set `submit` to press the keyboard return key afterwards, e.g. to run a search.',
  input: z.strictObject({
    device: deviceField,
    text: typedTextField(`The text to type (1–${MAX_TYPED_TEXT_LENGTH} characters)`),
    submit: z.boolean().default(false).describe('Press return after typing'),
  }),
  output: z.object({ typedCharacters: z.number(), submitted: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handler: async (ctx, { device, text, submit }) => {
    await inputText(ctx.hub, device, { text, submit });
    return { typedCharacters: [...text].length, submitted: submit };
  },
  // The typed text is not echoed: it may be a password.
  summarize: (s) => `Typed ${s.typedCharacters} character(s)${s.submitted ? ' and pressed return' : ''}.`,
});

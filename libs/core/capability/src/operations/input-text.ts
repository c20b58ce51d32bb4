import { z } from 'zod';
import { inputText, resolveRef, tap } from '@apex/hub';
import { invalidArgument } from '@apex/errors';
import { defineOperation } from '../define-operation';
import { MAX_TYPED_TEXT_LENGTH } from '../limits';
import { deviceField, refField, typedTextField } from '../schemas';

/** The delete key, as typed text: one deletes one character before the cursor. */
const DELETE = '\b';

export const inputTextOperation = defineOperation({
  name: 'input_text',
  title: 'Type text',
  description: 'Types into the field `ref` names (focused first; `clear` replaces its text), else the focused field; `submit` then presses return.',
  input: z.strictObject({
    device: deviceField,
    text: typedTextField(`1–${MAX_TYPED_TEXT_LENGTH} characters`),
    ref: refField,
    clear: z.boolean().optional(),
    submit: z.boolean().default(false),
  }),
  output: z.object({ typedCharacters: z.number(), submitted: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, text, ref, clear, submit }) => {
    let typed = text;
    if (clear && ref === undefined) {
      throw invalidArgument('`clear` needs the `ref` of the field to clear.', [{ path: 'clear', message: 'needs ref' }], 'Example: {"ref":"e7","text":"hello","clear":true}.');
    }
    if (ref !== undefined) {
      const field = await resolveRef(ctx.hub, device, ref);
      await tap(ctx.hub, device, field.center);
      // Deleting as many characters as the field holds clears it with the keyboard alone, on every driver.
      const current = field.node?.value === field.node?.placeholder ? '' : (field.node?.value ?? '');
      if (clear && current) typed = DELETE.repeat([...current].length) + text;
    }
    await inputText(ctx.hub, device, { text: typed, submit });
    return { typedCharacters: [...text].length, submitted: submit };
  },
  // The typed text is not echoed: it may be a password.
  summarize: (s) => `Typed ${s.typedCharacters} character(s)${s.submitted ? ' and pressed return' : ''}.`,
});

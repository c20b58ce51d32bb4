import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { handleAlert } from '@apex/hub';
import type { AlertAction } from '@apex/port';
import { defineOperation } from '../define-operation';
import { MAX_BUTTON_LABEL_LENGTH } from '../limits';
import { deviceField } from '../schemas';

const ALERT_ACTIONS = ['accept', 'dismiss', 'press'] as const;

function alertAction(action: (typeof ALERT_ACTIONS)[number], button: string | undefined): AlertAction {
  if (action === 'press') {
    if (button === undefined) throw invalidArgument('press needs the label of the button to press.', [{ path: 'button', message: 'is required for press' }]);
    return { kind: 'press', button };
  }
  if (button !== undefined) {
    throw invalidArgument(`${action} takes no button; use action "press" to press a labelled one.`, [
      { path: 'button', message: 'only with action press' },
    ]);
  }
  return { kind: action };
}

export const handleAlertOperation = defineOperation({
  name: 'handle_alert',
  title: 'Handle alert',
  description:
    'Answers the alert on screen (a permission prompt…): accept, dismiss, or press `button` by label.',
  input: z.strictObject({
    device: deviceField,
    action: z.enum(ALERT_ACTIONS),
    button: z.string().min(1).max(MAX_BUTTON_LABEL_LENGTH).optional().describe('label, for press'),
  }),
  output: z.object({ title: z.string().optional(), text: z.string().optional(), buttons: z.array(z.string()) }),
  // A button on an alert may confirm a deletion; a second call finds no alert.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  toolset: 'act',
  acts: true,
  handler: async (ctx, { device, action, button }) => handleAlert(ctx.hub, device, alertAction(action, button)),
  summarize: (s) => `Answered the alert${s.title ? ` "${s.title}"` : ''} (buttons: ${s.buttons.join(', ')}).`,
});

import type { Observation, ScreenElement } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { closeness } from './labels';
import { openApp } from './open';
import { isApp, locate, pickTextInput } from './screen';
import { act, ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';

const MESSAGES_APP = 'Messages';
const SEND_LABEL = /^(?:send|send message|send sms)$/i;

type SendIntent = Extract<Intent, { kind: 'send' }>;

/** The conversation with `to` is what the screen shows: a message field, and the name among its texts. */
function inConversation(obs: Observation, to: string | undefined): boolean {
  if (!pickTextInput(obs, undefined)) return false;
  if (!to) return true;
  const texts = [...(obs.screen.staticText ?? []).map((t) => t.text), ...obs.screen.elements.filter((e) => e.role !== 'cell').map((e) => e.label)];
  return texts.some((t) => closeness(to, t) >= 4);
}

/** The message as a bubble on screen, and no longer in the field. */
function sentBubble(obs: Observation, text: string): boolean {
  const field = pickTextInput(obs, undefined);
  if (field && (field.value ?? '').includes(text)) return false;
  const shown = [...(obs.screen.staticText ?? []).map((t) => t.text), ...obs.screen.elements.filter((e) => !['textField', 'searchField'].includes(e.role)).map((e) => e.label ?? '')];
  return shown.some((t) => t.trim() === text.trim());
}

/**
 * "text Ada 'see you at six'": Messages opened, the conversation with Ada opened (its row tapped when a list
 * shows), the field focused, the text typed, Send tapped — and the sent bubble checked on screen.
 */
export async function sendMessage(s: SessionState, intent: SendIntent, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  const to = intent.to;
  if (st.phase === 0) {
    if (!isApp(obs, MESSAGES_APP)) {
      const step = await openApp(s, MESSAGES_APP, obs);
      if (step === MISSING) return { kind: 'fail', message: 'There is no Messages app on this device.', reason: 'infeasible' };
      if (step !== READY) return step;
    }
    if (!inConversation(obs, to)) {
      if (!to) {
        // "reply …" on the list of conversations: the newest one, the list's first row.
        const newest = obs.screen.elements.filter((e) => e.role === 'cell' && !e.disabled).sort((a, b) => a.center.y - b.center.y)[0];
        if (!newest || st.tries >= 1) return { kind: 'fail', message: 'No conversation is open to reply in: say whom to write to.', reason: 'target_not_found' };
        st.tries += 1;
        return s.tapAt(newest, { change: true }, `the newest conversation${newest.label ? ` (${newest.label})` : ''}`);
      }
      const row = locate(obs, to, { roles: ['cell', 'button', 'link'], minCloseness: 4 });
      if (row.kind === 'ambiguous') return ambiguous(to, row.labels);
      if (row.kind === 'none' || st.tries >= 1) return { kind: 'fail', message: `There is no conversation with "${to}" in Messages.`, reason: 'target_not_found' };
      st.tries += 1;
      return s.tapAt(row.item, { change: true }, `the conversation with ${row.label}`);
    }
    st.phase = 1;
  }
  const field = pickTextInput(obs, undefined) as ScreenElement | undefined;
  if (st.phase === 1) {
    if (!field) return { kind: 'fail', message: 'The conversation has no message field.', reason: 'target_not_found' };
    st.phase = 2;
    if (!field.focused || !obs.screen.keyboardVisible) return s.tapAt(field, { keyboard: true }, 'the message field');
  }
  if (st.phase === 2) {
    st.phase = 3;
    return act('input_text', { text: intent.text }, { textPresent: intent.text });
  }
  if (st.phase === 3) {
    if (feedback?.outcome.status === 'error') return { kind: 'fail', message: `Could not type the message: ${feedback.outcome.detail}`, reason: 'device_error' };
    st.phase = 4;
    const send = obs.screen.elements.find((e) => e.role === 'button' && !e.disabled && SEND_LABEL.test(e.label ?? ''));
    return send ? s.tapAt(send, { change: true }, 'sending the message') : act('input_text', { text: '\n' }, { change: true }, 'sending the message');
  }
  if (!sentBubble(obs, intent.text)) return { kind: 'fail', message: 'The message did not show as sent in the conversation.', reason: 'target_not_found' };
  const title = obs.screen.staticText?.[0]?.text;
  st.note = `Sent "${intent.text}"${to ? ` to ${title && closeness(to, title) >= 4 ? title : to}` : ''}, and it shows in the conversation`;
  return NEXT;
}

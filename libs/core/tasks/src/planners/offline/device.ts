import type { Observation } from '../../agent/observation';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { isApp, locate, type Spot } from './screen';
import { searchBySwiping } from './search';
import { act, ambiguous, NEXT, type SessionState, type Step } from './session';

/** How long "wait until X appears" waits (ms). */
const WAIT_MS = 10_000;

type DeviceIntent = Extract<Intent, { kind: 'device' }>;

/** Why the last action failed, when it did. */
function failed(feedback: StepFeedback | undefined): string | undefined {
  return feedback && feedback.outcome.status === 'error' ? feedback.outcome.detail : undefined;
}

/** "lock the phone", "landscape", "dark mode", "copy X to the clipboard", "hide the keyboard": one catalog operation. */
export function deviceOperation(s: SessionState, intent: DeviceIntent, feedback: StepFeedback | undefined): Step {
  const st = s.state;
  if (st.acted) {
    const why = failed(feedback);
    if (!why) return NEXT;
    // What this device cannot do at all (Android's clipboard, a home screen that stays portrait) no retry changes.
    const cannot = feedback?.outcome.code === 'unsupported_operation' || feedback?.outcome.code === 'invalid_argument';
    const homeScreen = intent.operation === 'set_orientation' && onHomeScreen(s);
    const hint = homeScreen ? ' The home screen stays upright on this phone: open an app first, then rotate.' : '';
    return { kind: 'fail', message: `Could not ${intent.says}: ${why}${hint}`, reason: cannot || homeScreen ? 'infeasible' : 'device_error' };
  }
  // The clipboard's text is the user's: counted, never repeated in the result.
  const text = intent.arguments['text'];
  st.note = typeof text === 'string' ? `Copied ${text.length} character(s) to the clipboard` : capitalize(pastTense(intent.says));
  return act(intent.operation, intent.arguments, undefined, intent.says);
}

/** "quit Maps": the app ended; when ending it is not possible and it is in front, the home screen instead. */
export async function closeApp(s: SessionState, name: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (!st.acted) {
    const app = (await s.lookupApp(name)) ?? (isApp(obs, name) && obs.screen.app ? obs.screen.app : undefined);
    if (!app) return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
    st.resolved = { app: app.appId };
    st.note = `Closed ${app.name ?? name}`;
    return act('terminate_app', { appId: app.appId }, undefined, `closing ${app.name ?? name}`);
  }
  const appId = st.resolved?.app;
  const why = failed(feedback);
  if (why && feedback?.action.operation === 'terminate_app') {
    if (obs.screen.app?.appId !== appId || st.wentHome) return { kind: 'fail', message: `Could not close ${name}: ${why}`, reason: 'device_error' };
    st.wentHome = true;
    st.note = `Left ${name} for the home screen (it could not be ended: ${why})`;
    return act('press_button', { button: 'home' });
  }
  return NEXT;
}

/** The arguments that point a gesture at a spot: its ref when it has one on this screen, else its centre. */
function pointAt(s: SessionState, spot: Spot): Record<string, unknown> {
  if (s.context.actByRef !== false && spot.ref && s.screen?.screen.elements.some((e) => e.ref === spot.ref)) return { ref: spot.ref };
  return { x: Math.round(spot.center.x * 10) / 10, y: Math.round(spot.center.y * 10) / 10 };
}

/** "long press X", "double tap X": the gesture on what X names (scrolling for it when off screen). */
export function gesture(s: SessionState, intent: Extract<Intent, { kind: 'gesture' }>, obs: Observation, feedback: StepFeedback | undefined): Step {
  const st = s.state;
  if (st.note) {
    const why = failed(feedback);
    return why ? { kind: 'fail', message: `Could not ${intent.gesture === 'long_press' ? 'long press' : 'double tap'} ${intent.target}: ${why}`, reason: 'device_error' } : NEXT;
  }
  const match = locate(obs, intent.target, { includeText: true });
  if (match.kind === 'ambiguous') return ambiguous(intent.target, match.labels);
  if (match.kind === 'none') return searchBySwiping(s, intent.target, obs, feedback);
  st.note = `${intent.gesture === 'long_press' ? 'Long pressed' : 'Double tapped'} ${match.label}`;
  return act(intent.gesture, pointAt(s, match.item));
}

/** "wait until X appears": the catalog's wait, bounded; a wait that ends unmet fails the goal. */
export function waitFor(s: SessionState, intent: Extract<Intent, { kind: 'wait' }>, feedback: StepFeedback | undefined): Step {
  const st = s.state;
  if (!st.acted) {
    st.note = `Waited until "${intent.target}" ${intent.gone ? 'disappeared' : 'appeared'}`;
    return act('wait_for', { text: intent.target, gone: intent.gone, timeoutMs: WAIT_MS });
  }
  const why = failed(feedback);
  if (why) return { kind: 'fail', message: `Could not wait for "${intent.target}": ${why}`, reason: 'device_error' };
  if (feedback?.result?.output['met'] === false) {
    return { kind: 'fail', message: `"${intent.target}" did not ${intent.gone ? 'go away' : 'appear'} within ${WAIT_MS / 1000} s.`, reason: 'target_not_found' };
  }
  return NEXT;
}

/** The screen shows app icons: the home screen (or its app drawer), not an app. */
function onHomeScreen(s: SessionState): boolean {
  return s.screen?.screen.elements.some((e) => e.role === 'icon') === true;
}

function pastTense(says: string): string {
  return says.replace(/^send/, 'sent').replace(/^clear/, 'cleared').replace(/^lock/, 'locked').replace(/^unlock/, 'unlocked').replace(/^rotate/, 'rotated').replace(/^switch/, 'switched').replace(/^hide/, 'hid');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

import type { Observation } from '../../agent/observation';
import type { Decision, StepFeedback } from '../../agent/planner';
import { THIS_APP } from '../../goal/parse-app-loop';
import { isApp, locate, locateOne } from './screen';
import { act, ambiguous, MISSING, NEXT, READY, type SessionState, type Step } from './session';
import { tap } from './tap';

/** "open X": an app (by list_apps or its icon), or a row or button of this screen or of the app the goal works in. */
export async function open(s: SessionState, named: string, obs: Observation, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  // "install X, then open it": the app the clause before installed (or acted on), by its id.
  const name = THIS_APP.test(named) && s.lastApp ? s.lastApp.appId : named;
  if (st.resolved?.field !== undefined) return tap(s, name, obs, feedback);
  const app = s.appName(name);
  // "open General": a row or button of this screen (or of the app the goal works in), unless an app.
  const knownApp = isApp(obs, name) || app !== undefined || (await s.lookupApp(name)) !== undefined;
  if (!knownApp && !st.wentHome) {
    const row = locate(obs, name, { minCloseness: 3 });
    if (row.kind === 'ambiguous') return ambiguous(name, row.labels);
    if (row.kind === 'match' || s.inContextApp(obs)) {
      st.resolved = { field: name };
      return tap(s, name, obs, feedback);
    }
  }
  if (st.returnTo) {
    // No such app: back to the app we left, to look for a row of that name there.
    const back = await openApp(s, st.returnTo, obs);
    if (back === MISSING) return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
    if (back !== READY) return back;
    st.resolved = { field: name };
    return tap(s, name, obs, feedback);
  }
  const step = await openApp(s, app ?? name, obs);
  if (step === READY) {
    st.note ??= `Opened ${obs.screen.app?.name ?? name}`;
    s.contextApp = obs.screen.app?.name ?? name;
    s.contextAppId = obs.screen.app?.appId;
    if (obs.screen.app) s.lastApp = { appId: obs.screen.app.appId, name: obs.screen.app.name };
    return NEXT;
  }
  if (step === MISSING) {
    if (st.leftApp && !knownApp) {
      st.returnTo = st.leftApp;
      st.launches = 0;
      return open(s, name, obs, feedback);
    }
    return { kind: 'fail', message: `There is no app named "${name}" on this device.`, reason: 'infeasible' };
  }
  return step;
}

export function openEndState(s: SessionState, app: string, obs: Observation, lastActionFailed: boolean): string | undefined {
  const st = s.state;
  if (st.resolved?.field === undefined && !st.note?.startsWith('Tapped') && !isApp(obs, app) && !seenAsApp(s, obs)) {
    return `${app} is not in the foreground.`;
  }
  return st.note?.startsWith('Tapped') && lastActionFailed ? `Tapped ${app}, but the screen did not change.` : undefined;
}

/** The foreground app is the one this open resolved to (by list_apps or an icon). */
function seenAsApp(s: SessionState, obs: Observation): boolean {
  const note = s.state.note;
  return note !== undefined && note.startsWith('Opened') && obs.screen.app !== undefined;
}

/**
 * Brings the named app to the foreground: by its id from list_apps when the device lists it, else by its
 * icon (on this screen, or on the home screen: the tree's icons, then find_icon).
 */
export async function openApp(s: SessionState, name: string, obs: Observation): Promise<Decision | typeof READY | typeof MISSING> {
  const st = s.state;
  const app = await s.lookupApp(name);
  if (app) {
    if (obs.screen.app?.appId === app.appId) return READY;
    if (st.launches >= 2) return { kind: 'fail', message: `${app.name ?? app.appId} did not come to the foreground.`, reason: 'device_error' };
    st.launches += 1;
    return act('launch_app', { appId: app.appId }, { appId: app.appId });
  }
  if (isApp(obs, name)) return READY;
  if (st.launches >= 2) return { kind: 'fail', message: `${name} did not come to the foreground.`, reason: 'device_error' };
  const icon = locateOne(obs, name, { roles: ['icon'], minCloseness: 3 });
  if (icon) {
    st.launches += 1;
    return s.tapAt(icon, { change: true });
  }
  if (!st.wentHome) {
    st.wentHome = true;
    if (obs.screen.app?.name && !obs.screen.elements.some((e) => e.role === 'icon')) st.leftApp = obs.screen.app.name;
    return act('press_button', { button: 'home' });
  }
  const found = await s.findIcon(name);
  if (found) {
    st.launches += 1;
    return s.tapAt(found, { change: true });
  }
  return MISSING;
}

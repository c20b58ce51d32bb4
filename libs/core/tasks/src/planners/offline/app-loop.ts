import type { ErrorCode } from '@apex/errors';
import type { StepFeedback } from '../../agent/planner';
import type { Intent } from '../../goal/intents';
import { THIS_APP } from '../../goal/parse-app-loop';
import { act, NEXT, type InstalledApp, type SessionState, type Step } from './session';

/**
 * The developer's loop (issue 33) from plain words: install a build, set an app's permission, reset or remove
 * an app, and questions about an app's state. Apps are named as the user wrote them and found through list_apps
 * (as "open" finds them); "it" / "the app" is the app a clause before installed or opened. None of these needs
 * the screen: they act through the catalog and read the result.
 */

/**
 * The phone's own apps (Apple's, Android's, Google's system apps) hold the user's notes, photos and messages:
 * resetting or removing one deletes what is the user's, not an app under test. Refused before any step.
 */
const PHONES_OWN_APP = /^(?:com\.apple\.|com\.android\.|com\.google\.android\.)/;
/** What the device answers when the goal itself cannot be done there (no retry helps). */
const INFEASIBLE: ReadonlyArray<ErrorCode | undefined> = ['invalid_argument', 'unsupported_operation', 'app_not_found', 'unauthorized'];

type AppIntent = Extract<Intent, { kind: 'app' }>;

function failure(feedback: StepFeedback | undefined, what: string): Step | undefined {
  if (!feedback || feedback.outcome.status === 'ok') return undefined;
  return { kind: 'fail', message: `Could not ${what}: ${feedback.outcome.detail}`, reason: INFEASIBLE.includes(feedback.outcome.code) ? 'infeasible' : 'device_error' };
}

/** The app a clause names: "it" is the one installed or opened before; others through list_apps. */
async function appNamed(s: SessionState, name: string): Promise<InstalledApp | undefined> {
  if (THIS_APP.test(name)) return s.lastApp;
  return s.lookupApp(name);
}

/** "install /builds/WhereAmI.app": the build installed; its name becomes what "it" names after. */
export function install(s: SessionState, intent: Extract<Intent, { kind: 'install' }>, feedback: StepFeedback | undefined): Step {
  const st = s.state;
  if (!st.acted) return act('install_app', { path: intent.path }, undefined, 'install the build');
  const failed = failure(feedback, 'install the build');
  if (failed) return failed;
  const output = feedback?.result?.output as { appId?: string; name?: string; replaced?: boolean } | undefined;
  if (output?.appId) s.lastApp = { appId: output.appId, name: output.name };
  s.forgetApps();
  st.note = `${output?.replaced ? 'Replaced' : 'Installed'} ${output?.name ?? 'the build'}${output?.appId ? ` (${output.appId})` : ''}`;
  return NEXT;
}

/** "grant Where Am I location access", "reset Where Am I", "uninstall Where Am I". */
export async function appOperation(s: SessionState, intent: AppIntent, feedback: StepFeedback | undefined): Promise<Step> {
  const st = s.state;
  if (!st.acted) {
    const app = await appNamed(s, intent.app);
    if (!app) {
      const name = THIS_APP.test(intent.app) ? 'no app was installed or opened before' : `there is no app named "${intent.app}" on this device`;
      return { kind: 'fail', message: `Cannot ${verb(intent)}: ${name}.`, reason: 'infeasible' };
    }
    const label = app.name ?? app.appId;
    if (intent.operation !== 'set_permission' && PHONES_OWN_APP.test(app.appId)) {
      return {
        kind: 'fail',
        message: `Refused: ${label} is one of the phone's own apps; ${intent.operation === 'reset_app' ? 'resetting' : 'removing'} it would delete the user's data, which needs a person. Nothing was touched.`,
        reason: 'infeasible',
      };
    }
    st.resolved = { app: app.appId };
    s.lastApp = app;
    if (intent.operation === 'set_permission') {
      st.note = `${intent.state === 'granted' ? 'Granted' : intent.state === 'denied' ? 'Denied' : 'Unset'} ${label} ${intent.permission} access`;
      return act('set_permission', { appId: app.appId, permission: intent.permission, state: intent.state }, undefined, verb(intent));
    }
    st.note = intent.operation === 'reset_app' ? `Reset ${label}: its data and permissions are cleared` : `Uninstalled ${label}`;
    return act(intent.operation, { appId: app.appId }, undefined, verb(intent));
  }
  const failed = failure(feedback, verb(intent));
  if (failed) return failed;
  if (intent.operation === 'uninstall_app') s.forgetApps();
  return NEXT;
}

/** "is Where Am I installed?", "is Maps running?": read through app_state, answered; nothing changes. */
export async function askAppState(s: SessionState, intent: Extract<Intent, { kind: 'app_state' }>): Promise<Step> {
  const app = await appNamed(s, intent.app);
  const subject = `${intent.app} ${intent.asks === 'installed' || intent.asks === 'running' ? intent.asks : `in the ${intent.asks}`}`;
  let state: string;
  if (app) {
    state = String((await s.context.query('app_state', { appId: app.appId })).output['state']);
  } else if (!THIS_APP.test(intent.app) && (await s.listsEveryApp())) {
    // The device named every app it has, and none is called that.
    state = 'notInstalled';
  } else {
    return { kind: 'fail', message: `Cannot tell whether ${intent.app} is ${intent.asks}: the device does not name every app it has.`, reason: 'target_not_found' };
  }
  const value =
    intent.asks === 'installed' ? state !== 'notInstalled' : intent.asks === 'running' ? state === 'foreground' || state === 'background' : state === intent.asks;
  s.answer = { subject, value, source: 'device' };
  const name = app?.name ?? intent.app;
  s.state.note = `${value ? 'Yes' : 'No'}: ${name} is ${STATE_WORDS[state] ?? state}`;
  return NEXT;
}

const STATE_WORDS: Record<string, string> = {
  notInstalled: 'not installed',
  notRunning: 'installed, not running',
  background: 'running in the background',
  foreground: 'running in the foreground',
};

function verb(intent: AppIntent): string {
  if (intent.operation === 'reset_app') return `reset ${intent.app}`;
  if (intent.operation === 'uninstall_app') return `uninstall ${intent.app}`;
  return `set ${intent.app}'s ${intent.permission} permission`;
}

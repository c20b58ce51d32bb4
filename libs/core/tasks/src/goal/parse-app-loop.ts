import type { Permission } from '@apex/port';
import type { Intent } from './intents';

/**
 * The developer's loop in plain words (issue 38 × issue 33): install a build, an app's permissions, the
 * simulated location, the background, an app's data and its removal, and questions about an app's state.
 * Clause text arrives masked (quoted text is \uE000n\uE000; a "lat, long" pair is joined by \uE001).
 *
 * Which of these are not refusals, and why: resetting an app (its data and permissions) and uninstalling it
 * act on the app the user names and on nothing else; they are how a developer starts the app under test
 * afresh, and reinstalling the build undoes them. The phone's own apps hold the user's notes, photos and
 * messages: resetting or removing one stays refused (offline/app-loop.ts, before any step). Wiping the phone,
 * deleting the user's content ("delete all my photos", "clear my data"), purchases, money and emergency
 * calls stay refusals (parse-families.ts): those clauses name no app's data, so nothing here takes them.
 */

/** Neutral permission names (PERMISSIONS of @apex/port) by the words people use for them. */
const PERMISSION_WORDS: ReadonlyArray<readonly [Permission, string]> = [
  ['locationAlways', String.raw`(?:location|position)\s+(?:always|all\s+the\s+time|in\s+the\s+background)|always\s+location|background\s+location`],
  ['location', String.raw`location|position|gps|whereabouts`],
  ['camera', String.raw`camera`],
  ['microphone', String.raw`microphone|mic`],
  ['photos', String.raw`photos?|photo\s+library|pictures|gallery`],
  ['contacts', String.raw`contacts|address\s+book`],
  ['calendar', String.raw`calendars?`],
  ['reminders', String.raw`reminders`],
  ['notifications', String.raw`notifications?|alerts`],
  ['motion', String.raw`motion(?:\s+(?:&|and)\s+fitness)?|fitness(?:\s+data)?`],
];
const PERMISSION = String.raw`(?:the\s+|my\s+)?(${PERMISSION_WORDS.map(([, words]) => `(?:${words})`).join('|')})(?:\s+(?:access|permissions?|data))?`;
const GRANT = /^(?:grant|give|allow|let|enable|permit)$/i;
const DENY = /^(?:deny|refuse|block|revoke|disallow|disable|forbid|remove|take\s+away)$/i;
const PERMISSION_VERB = String.raw`(grant|give|allow|let|enable|permit|deny|refuse|block|revoke|disallow|disable|forbid|take\s+away|remove)`;
/** Names that are no single app's: clauses holding one stay with the refusals ("clear all my data"). */
const NOT_ONE_APP = /^(?:all|every|everything|my|me|it\s+all|the\s+phone|my\s+phone|this\s+phone|the\s+device|(?:the\s+)?iphone|data|settings|apps?)$|\b(?:all|every|everything|phone|device)\b/i;
/** "the app", "it": the app the goal installed or opened before. */
export const THIS_APP = /^(?:it|this|that|(?:the|this|that|current|my)\s+app|the\s+current\s+app|the\s+app\s+in\s+front|the\s+foreground\s+app|app)$/i;
/** A build on the host: a path (or quoted text) ending in .app, .ipa, .apk or .zip. */
const BUILD_PATH = String.raw`(\uE000\d+\uE000|[~./\w-][^\s]*\.(?:app|ipa|apk|zip)\/?)`;
const NUMBER = String.raw`(-?\d{1,3}(?:\.\d+)?)`;
const COORDINATES = String.raw`(?:latitude\s+)?${NUMBER}\s*(?:\uE001|,)\s*(?:longitude\s+)?${NUMBER}`;
const SECONDS = String.raw`(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)`;

function permissionOf(words: string): Permission | undefined {
  return PERMISSION_WORDS.find(([, pattern]) => new RegExp(`^(?:${pattern})$`, 'i').test(words.trim()))?.[0];
}

function appName(text: string): string | undefined {
  const name = text.trim().replace(/^(?:the\s+)/i, '').replace(/\s+app$/i, '').trim();
  if (name.length === 0 || (!THIS_APP.test(text.trim()) && NOT_ONE_APP.test(name))) return undefined;
  return THIS_APP.test(text.trim()) ? 'it' : name;
}

function permission(verb: string, app: string, words: string): Intent[] | undefined {
  const name = appName(app);
  const which = permissionOf(words);
  if (!name || !which) return undefined;
  const state = GRANT.test(verb) ? 'granted' : DENY.test(verb) ? 'denied' : undefined;
  return state ? [{ kind: 'app', operation: 'set_permission', app: name, permission: which, state }] : undefined;
}

/** "is Where Am I installed?", "is Maps running?": what the app's state answers. */
function appQuestion(clause: string): Intent[] | undefined {
  const asked = clause.replace(/^(?:tell\s+me|let\s+me\s+know|find\s+out|check|see)\s+(?:if|whether)\s+(.+?)\s+is\s+/i, 'is $1 ');
  let m = asked.match(/^is\s+(.+?)\s+(installed|running|open|in\s+the\s+(?:foreground|background)|in\s+front|on\s+screen)(?:\s+(?:on|in)\s+(?:the|my|this)\s+(?:phone|device|iphone))?(?:\s+(?:right\s+)?now)?$/i);
  if (!m) m = asked.match(/^(?:do\s+i\s+have|does\s+(?:the|this|my)\s+(?:phone|device|iphone)\s+have)\s+(.+?)\s+(installed)$/i);
  const name = m && appName(m[1]);
  if (!m || !name) return undefined;
  const state = m[2].toLowerCase();
  const asks = state === 'installed' ? 'installed' : /background/.test(state) ? 'background' : /foreground|front|screen/.test(state) ? 'foreground' : 'running';
  return [{ kind: 'app_state', app: name, asks }];
}

/** One clause of the developer's loop, or undefined. */
export function parseAppLoop(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  // Install a build from the host.
  if ((m = clause.match(new RegExp(String.raw`^(?:install|sideload|deploy|load|put|push)\s+(?:the\s+)?(?:(?:app|build|bundle|apk|ipa)\s+)?(?:(?:at|from)\s+)?${BUILD_PATH}(?:\s+(?:on|onto|to)\s+(?:the\s+|my\s+|this\s+)?(?:phone|device|iphone|simulator|emulator))?$`, 'i')))) {
    return [{ kind: 'install', path: m[1] }];
  }
  // Permissions: "grant Where Am I location access", "allow Maps to use my location", "deny camera for X".
  if ((m = clause.match(new RegExp(String.raw`^${PERMISSION_VERB}\s+(.+?)\s+(?:access\s+to|permission\s+(?:to\s+use|for))\s+${PERMISSION}$`, 'i')))) return permission(m[1], m[2], m[3]);
  if ((m = clause.match(new RegExp(String.raw`^${PERMISSION_VERB}\s+${PERMISSION}\s+(?:to|for|from|of)\s+(.+)$`, 'i')))) return permission(m[1], m[3], m[2]);
  if ((m = clause.match(new RegExp(String.raw`^${PERMISSION_VERB}\s+(.+?)(?:\s+(?:to\s+)?(?:use|access|see|know|read|get))?\s+${PERMISSION}$`, 'i')))) return permission(m[1], m[2], m[3]);
  if ((m = clause.match(new RegExp(String.raw`^(?:reset|unset|clear|forget)\s+${PERMISSION}\s+(?:for|of)\s+(.+)$`, 'i')))) {
    const name = appName(m[2]);
    const which = permissionOf(m[1]);
    return name && which && /permission/i.test(clause) ? [{ kind: 'app', operation: 'set_permission', app: name, permission: which, state: 'unset' }] : undefined;
  }
  // The simulated location.
  if (
    (m = clause.match(new RegExp(String.raw`^(?:set|change|move|put|update|simulate|fake|spoof|mock)\s+(?:the\s+|my\s+)?(?:simulated\s+|fake\s+|device'?s\s+|phone'?s\s+)?(?:gps\s+)?(?:location|position|coordinates)\s+(?:to|at|as)\s+${COORDINATES}$`, 'i'))) ||
    (m = clause.match(new RegExp(String.raw`^(?:pretend|act\s+as\s+if|make\s+(?:it\s+look\s+like|believe)|say|imagine)\s+(?:that\s+)?(?:i'?m|i\s+am|we'?re|we\s+are|the\s+(?:phone|device)\s+is)\s+(?:at|in)\s+${COORDINATES}$`, 'i'))) ||
    (m = clause.match(new RegExp(String.raw`^(?:teleport|move|put)\s+(?:me|us|the\s+(?:phone|device|iphone))\s+to\s+${COORDINATES}$`, 'i')))
  ) {
    return [{ kind: 'device', operation: 'set_location', arguments: { latitude: Number(m[1]), longitude: Number(m[2]) }, says: `set the location to ${m[1]}, ${m[2]}` }];
  }
  if (
    /^(?:clear|reset|remove|stop|forget|turn\s+off|disable|undo)\s+(?:simulating\s+|faking\s+|spoofing\s+)?(?:the\s+|my\s+)?(?:simulated|fake|faked|mock|spoofed|custom|pretend)\s+(?:gps\s+)?(?:location|position)$/i.test(clause) ||
    /^(?:clear|reset|stop\s+(?:simulating|faking|spoofing))\s+(?:the\s+|my\s+)?(?:gps\s+)?location(?:\s+(?:simulation|override))?$/i.test(clause) ||
    /^(?:use|go\s+back\s+to)\s+(?:my|the)\s+real\s+location$/i.test(clause)
  ) {
    return [{ kind: 'device', operation: 'set_location', arguments: { clear: true }, says: 'clear the simulated location' }];
  }
  // The background.
  if (
    (m = clause.match(new RegExp(String.raw`^(?:send|put|move|push)\s+(.+?)\s+(?:to|in|into)\s+the\s+background(?:\s+for\s+${SECONDS})?$`, 'i'))) ||
    (m = clause.match(new RegExp(String.raw`^background\s+(.+?)(?:\s+for\s+${SECONDS})?$`, 'i')))
  ) {
    const name = appName(m[1]);
    if (!name) return undefined;
    const seconds = m[2] === undefined ? undefined : Number(m[2]);
    const background: Intent = { kind: 'device', operation: 'background_app', arguments: seconds === undefined ? {} : { seconds }, says: seconds === undefined ? 'send the app to the background' : `send the app to the background for ${seconds} s` };
    return name === 'it' ? [background] : [{ kind: 'open', app: name }, background];
  }
  // An app's data: "reset Where Am I", "clear the data of X", "wipe X's data".
  if (
    (m = clause.match(/^(?:reset|restore)\s+(?!all\b|everything\b)(.+?)(?:\s+to\s+(?:a\s+)?(?:fresh|first|clean|new)\s+(?:install|launch|start|state))?$/i)) ||
    (m = clause.match(/^(?:clear|erase|wipe|delete|reset|remove)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:app\s+)?(?:data|storage|state)\s+(?:of|for|in|from)\s+(.+)$/i)) ||
    (m = clause.match(/^(?:clear|erase|wipe|delete|reset|remove)\s+(?:the\s+)?(.+?)(?:'s|’s)?\s+(?:app\s+)?(?:data|storage|state)$/i))
  ) {
    const name = appName(m[1]);
    return name ? [{ kind: 'app', operation: 'reset_app', app: name }] : undefined;
  }
  // Removing an app: "uninstall X", "delete the X app", "remove X from the phone".
  if (
    (m = clause.match(/^uninstall\s+(.+?)(?:\s+from\s+(?:the|my|this)\s+(?:phone|device|iphone))?$/i)) ||
    (m = clause.match(/^(?:delete|remove)\s+(?:the\s+)?(.+?\s+app)(?:\s+from\s+(?:the|my|this)\s+(?:phone|device|iphone))?$/i)) ||
    (m = clause.match(/^(?:delete|remove)\s+(?:the\s+)?(.+?)\s+from\s+(?:the|my|this)\s+(?:phone|device|iphone)$/i))
  ) {
    const name = appName(m[1]);
    return name ? [{ kind: 'app', operation: 'uninstall_app', app: name }] : undefined;
  }
  return appQuestion(clause);
}

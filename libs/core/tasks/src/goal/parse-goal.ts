import { namedTarget, type Intent, type ScrollDirection } from './intents';
import { parseAppLoop } from './parse-app-loop';
import { parseShow } from './parse-show';
import { appearanceToggle, parseDeviceControl } from './parse-device';
import {
  parseFamilyClause,
  parseInApp,
  parseMark,
  parseQuestion,
  parseSearch,
  parseSend,
  refusalMessage,
  refusalOfClause,
  refusalOfGoal,
  withoutConstraintTail,
} from './parse-families';

/**
 * The offline planner's grammar. A goal is clauses joined by "then", "and", commas, semicolons, full
 * stops or path arrows (`Settings > General > About`); politeness around it ("please", "could you…",
 * "thanks") does not count. Each clause is one of:
 *
 *   open|launch|start|go to|switch to [the] APP [app]      in [the] APP[,] CLAUSE
 *   go home | go to the home screen | press [the] home [button]
 *   go back [to SCREEN] | back | navigate back
 *   scroll|swipe up|down|left|right [in APP]
 *   scroll [up|down] [in APP] until you see TARGET | scroll to TARGET | find|look for TARGET
 *   turn|switch on|off [the] TARGET | turn|switch [the] TARGET on|off | enable|disable [the] TARGET
 *   type|enter|write TEXT [in|into [the] APP-OR-FIELD] [and submit|press return]   (TEXT may be "quoted")
 *   tap|press|click|select|choose [on] [the] TARGET [button|row|icon|switch]
 *   go to|visit|open WEB-ADDRESS                            (example.com, https://…: opened in the browser)
 *   allow [once] | don't allow | deny                      (answers the alert on screen)
 *   allow [APP] only this time|once|while using the app   (opens APP, answers its permission prompt)
 *
 * Matching is case-insensitive; names keep the case the user wrote; a one-letter typo in the verb is
 * forgiven. A bare target after an open, tap or toggle ("open Settings, then General") repeats that verb;
 * after a path arrow it is a row of the screen before. "it" / "that" names what the clause before named.
 */
export type ParseResult = { ok: true; intents: Intent[] } | { ok: false; clause: string; message: string };
// See parse-device.ts (device controls), parse-show.ts ("show me X") and parse-families.ts for the rest: closing apps, long press / double tap, waits, items'
// controls, tabs, messages, search fields, constraints ("but leave X on"), questions, and refusals.

export const GRAMMAR_SUMMARY =
  'The offline planner understands: open APP, tap TARGET, turn on/off SWITCH, type TEXT in APP, scroll up/down, scroll until you see TARGET, go home, go back, go to WEB-ADDRESS, allow APP only this time, lock/rotate (landscape, sideways, portrait)/dark mode, copy TEXT to the clipboard, close APP, long press/double tap TARGET, wait until TARGET appears, mark ITEM as done (complete/finish ITEM, ITEM is done), open TAB in APP, show me TAB|APP|VALUE, text NAME "MESSAGE", search APP for TEXT, questions (what iOS version is this? is Wi-Fi on? how many reminders are left? is APP installed/running?), install PATH.app|.ipa|.apk, grant/deny APP location|camera|… access, set the location to LAT, LONG, clear the simulated location, send APP to the background [for N seconds], reset APP, uninstall APP — joined by "then", "and", "but", commas or "A > B > C".';

const OPPOSITE: Record<ScrollDirection, ScrollDirection> = { up: 'down', down: 'up', left: 'right', right: 'left' };
const QUOTE = /"([^"]*)"|“([^”]*)”|'([^']*)'/g;
const SUBMIT = /^(?:submit|send|search|press\s+(?:return|enter|search|go))$/i;
const PATH = /\s*(?:->|→|»|>)\s*/;
const SEPARATOR = /\s*(?:[,;]|\.(?=\s|$))\s*(?:and\s+then\s+|then\s+|and\s+|but\s+|after\s+that\s+)?|\s+and\s+then\s+|\s+then\s+|\s+and\s+|\s+but\s+/i;
const POLITE_START =
  /^(?:(?:hey|hi|ok|okay)\b[,!]?\s*)?(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?|please\s+|kindly\s+|i\s+(?:want|need|would\s+like)\s+(?:you\s+)?to\s+|i'd\s+like\s+(?:you\s+)?to\s+|help\s+me\s+|let'?s\s+)+/i;
const POLITE_END = /(?:\s*,?\s*(?:please|thanks|thank\s+you|for\s+me|if\s+you\s+can))+\s*[.!?]*$/i;
const FILLER = /^(?:please|now|first|finally|next|also|then|lastly|and|after\s+that)\s+/i;
const VERBS = ['open', 'launch', 'start', 'turn', 'switch', 'toggle', 'enable', 'disable', 'scroll', 'swipe', 'type', 'enter', 'write', 'press', 'click', 'select', 'choose', 'find', 'navigate'];
const CLAUSE_VERB = /^(?:open|launch|start|run|go|navigate|switch|show|tap|press|click|select|choose|hit|touch|turn|toggle|set|enable|disable|activate|deactivate|scroll|swipe|type|enter|write|input|find|look|allow|deny)\b/i;
/** Words no name of a row or app has: a bare clause holding one is no target ("make it pretty"). */
const NOT_A_NAME = /\b(?:it|me|my|you|your|we|us|make|do|does|get|put|give|let|is|are|be|was|what|how|why|when|who|pretty|nice|something|thing|stuff|everything|anything|some|all|book|buy|order|call|tell|find|want|need)\b/i;
/** A web address: a scheme, or a dotted host name ending in letters ("apex.example", "news.site/today"). */
const WEB_ADDRESS = /^(?:https?:\/\/\S+|(?:[a-z0-9-]+\.)+[a-z]{2,}(?:[/?#]\S*)?)$/i;
const PRONOUN = /^(?:it|that|this|them|that one|this one)$/i;
/** Two decimal numbers joined by a comma: a latitude and a longitude. */
const COORDINATE_PAIR = /(-?\d{1,3}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)/g;

export function parseGoal(goal: string): ParseResult {
  const quoted: string[] = [];
  const masked = goal
    .replace(QUOTE, (_all, a?: string, b?: string, c?: string) => {
      quoted.push(a ?? b ?? c ?? '');
      return `\uE000${quoted.length - 1}\uE000`;
    })
    .trim()
    // "48.8584, 2.2945": one place, not two clauses.
    .replace(COORDINATE_PAIR, '$1\uE001$2')
    .replace(POLITE_START, '')
    .replace(POLITE_END, '');
  const refused = refusalOfGoal(masked);
  if (refused) return { ok: false, clause: goal, message: refusalMessage(refused, goal) };
  const { goal: withoutTail, nothingElse } = withoutConstraintTail(masked);
  // Path segments after the first are rows of the screen before them ("Settings > General > About").
  const clauses: { text: string; inPath: boolean; pathStart: boolean }[] = [];
  for (const part of withoutTail.split(SEPARATOR)) {
    const segments = part.split(PATH);
    segments.forEach((text, i) => clauses.push({ text: text.trim().replace(/[.!?]+$/, '').trim(), inPath: i > 0, pathStart: i === 0 && segments.length > 1 }));
  }
  const nonEmpty = clauses.filter((c) => c.text.length > 0);
  if (nonEmpty.length === 0) return { ok: false, clause: goal, message: 'The goal is empty.' };

  const intents: Intent[] = [];
  for (const { text, inPath, pathStart } of nonEmpty) {
    const previous = intents[intents.length - 1];
    // "type hello in Notes and submit": the submit belongs to the typing before it.
    if (previous?.kind === 'type' && SUBMIT.test(text)) {
      previous.submit = true;
      continue;
    }
    const original = unmask(text, quoted, true);
    // "Settings > General": a bare first segment is the app to open.
    const bare = isBareTarget(text) && (inPath || (pathStart && !previous));
    const parsed = bare ? [(inPath ? { kind: 'tap', target: text.trim() } : { kind: 'open', app: text.trim() }) as Intent] : parseClause(text, previous);
    if (!parsed) {
      const why = refusalOfClause(text.replace(FILLER, ''));
      if (why) return { ok: false, clause: original, message: refusalMessage(why, original) };
      return { ok: false, clause: original, message: `I cannot do "${original}" without a model. ${GRAMMAR_SUMMARY}` };
    }
    for (const intent of parsed) {
      const resolved = resolvePronoun(intent, intents[intents.length - 1]);
      if (!resolved) return { ok: false, clause: original, message: `I do not know what "it" is in "${original}": name it.` };
      intents.push(restoreQuotes(resolved, quoted));
    }
  }
  if (nothingElse) intents.push({ kind: 'keep' });
  return { ok: true, intents };
}

function parseClause(raw: string, previous: Intent | undefined): Intent[] | undefined {
  let clause = raw;
  while (FILLER.test(clause)) clause = clause.replace(FILLER, '');
  clause = clause.replace(/\s+please$/i, '');
  // The developer's loop before the typo fix ("wipe" is no "swipe") and the refusals: resetting or removing
  // the app under test is no refusal (see parse-app-loop.ts).
  const loop = parseAppLoop(clause);
  if (loop) return loop;
  clause = fixVerbTypo(clause);
  let m: RegExpMatchArray | null;

  // "In Clock, show me the stopwatch": any clause after "in APP,".
  if ((m = clause.match(/^(?:in|inside|within)\s+(?:the\s+)?([^,:]+?)(?:\s+app)?\s*[,:]\s+(.+)$/i)) && isBareTarget(m[1])) {
    const rest = parseClause(m[2], { kind: 'open', app: m[1] });
    if (rest) return [{ kind: 'open', app: m[1].trim() }, ...(rest[0]?.kind === 'open' && rest.length === 1 && !/^open\b/i.test(m[2]) ? [{ kind: 'tab', tab: rest[0].app } as Intent] : rest)];
  }
  // "In Settings, open Privacy & Security" / "in Settings open Wallpaper".
  if ((m = clause.match(/^(?:in|inside|within)\s+(?:the\s+)?(.+?)(?:\s+app)?\s*:?\s+((?:open|tap|press|click|select|choose|turn|switch|enable|disable|scroll|swipe|go|find|type)\b.*)$/i))) {
    const rest = parseClause(m[2], { kind: 'open', app: m[1] });
    return rest ? [{ kind: 'open', app: m[1].trim() }, ...rest] : undefined;
  }
  if ((m = clause.match(/^(?:in|inside|within)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i)) && isBareTarget(m[1])) {
    return [{ kind: 'open', app: m[1].trim() }];
  }

  const family = parseQuestion(clause) ?? parseMark(clause) ?? parseSend(clause);
  if (family) return family;
  const shown = parseShow(clause);
  if (shown && !WEB_ADDRESS.test(shown.target)) return [{ kind: 'show', target: shown.target, app: shown.app, ...(shown.page ? { page: true } : {}) }];
  // Real-world consequences stay refusals, whatever else the clause says.
  if (refusalOfClause(clause)) return undefined;
  const inApp = parseInApp(clause);
  if (inApp && WEB_ADDRESS.test(inApp.target)) return [{ kind: 'open', app: inApp.app }, { kind: 'visit', url: webUrl(inApp.target) }];
  if ((m = clause.match(/^(?:visit|go\s+to|navigate\s+to|browse\s+to|load)\s+(\S+)\s+(?:in|on|with|using)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i)) && WEB_ADDRESS.test(m[1])) {
    return [{ kind: 'open', app: m[2].trim() }, { kind: 'visit', url: webUrl(m[1]) }];
  }
  if (inApp && isBareTarget(inApp.app)) return [{ kind: 'open', app: inApp.app }, { kind: 'tab', tab: inApp.target.replace(/\s+tab$/i, '') }];
  const more = parseSearch(clause) ?? parseDeviceControl(clause) ?? parseFamilyClause(clause);
  if (more) return more;

  if (/^(?:go\s+(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|return\s+(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|(?:press|tap|hit)\s+(?:the\s+)?home(?:\s+button)?|(?:exit|leave)\s+(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|home(?:\s+screen)?)$/i.test(clause)) {
    return [{ kind: 'home' }];
  }
  if (/^(?:(?:go|navigate|move)\s+back|back|(?:tap|press|click|hit)\s+(?:the\s+)?back(?:\s+(?:button|arrow|icon))?)$/i.test(clause)) return [{ kind: 'back' }];
  if ((m = clause.match(/^(?:(?:go|navigate|move)\s+back|back|return)\s+to\s+(?:the\s+)?(.+?)(?:\s+(?:page|screen|app))?$/i))) return [{ kind: 'back', to: m[1].trim() }];

  // "scroll down in Settings until you see Wallpaper", "scroll to Wallpaper", "look for Battery".
  if (
    (m = clause.match(
      /^(?:scroll|swipe)(?:\s+(up|down))?(?:\s+(?:in|on)\s+(?:the\s+)?(.+?)(?:\s+app)?)?\s+(?:until|till|til|untill|to)\s+(?:you\s+|i\s+)?(?:can\s+)?(?:see|find|reach|get\s+to|spot)?\s*(?:the\s+)?(.+?)(?:\s+(?:row|option|item|setting|entry))?(?:\s+(?:appears|shows(?:\s+up)?|is\s+visible|comes\s+up))?$/i,
    ))
  ) {
    const find: Intent = { kind: 'find', target: m[3].trim(), direction: (m[1]?.toLowerCase() as 'up' | 'down' | undefined) ?? 'down' };
    return m[2] ? [{ kind: 'open', app: m[2].trim() }, find] : [find];
  }
  if ((m = clause.match(/^(?:find|look\s+for|locate|search\s+for)\s+(?:the\s+)?(.+?)(?:\s+(?:row|option|item|setting|entry))?$/i)) && !/\s(?:in|on)\s/i.test(m[1])) {
    return [{ kind: 'find', target: m[1].trim(), direction: 'down' }];
  }

  if ((m = clause.match(/^(scroll|swipe)(?:\s+(up|down|left|right))?(?:\s+(?:a\s+bit|a\s+little|once|the\s+(?:list|page|screen)))?(?:\s+(?:in|on)\s+(?:the\s+)?(.+?)(?:\s+app)?)?$/i))) {
    const direction = (m[2] ?? 'down').toLowerCase() as ScrollDirection;
    // Scrolling moves the content: to scroll down, the finger swipes up.
    const finger = m[1].toLowerCase() === 'scroll' ? OPPOSITE[direction] : direction;
    const scroll: Intent = { kind: 'scroll', direction, finger };
    return m[3] ? [{ kind: 'open', app: m[3].trim() }, scroll] : [scroll];
  }

  if ((m = clause.match(/^(allow(?:\s+once)?|accept|grant|deny|don'?t\s+allow|do\s+not\s+allow|refuse|decline|dismiss)(?:\s+(?:it|the\s+alert|the\s+prompt|the\s+popup|access|location(?:\s+access)?|permission|for\s+now))*$/i))) {
    return [{ kind: 'answer', words: m[1] }];
  }

  // "allow Maps only this time": the app's permission prompt answered with the words after its name.
  if ((m = clause.match(/^allow\s+(?:(?:the\s+)?(.+?)\s+)?(only\s+this\s+time|once|while\s+using(?:\s+the\s+app)?)$/i))) {
    const answer: Intent = { kind: 'answer', words: `allow ${m[2]}` };
    return m[1] && isBareTarget(m[1]) ? [{ kind: 'open', app: m[1].replace(/\s+app$/i, '').trim() }, answer] : m[1] ? undefined : [answer];
  }

  if ((m = clause.match(/^(?:turn|switch|toggle|set)\s+(on|off)\s+(.+)$/i))) return toggleIn(m[2], m[1]);
  if ((m = clause.match(/^(?:turn|switch|toggle|set)\s+(.+?)\s+(on|off)(?:\s+(?:in|on)\s+(?:the\s+)?(.+?))?$/i))) return toggleIn(m[3] ? `${m[1]} in ${m[3]}` : m[1], m[2]);
  if ((m = clause.match(/^(enable|disable|activate|deactivate)\s+(.+)$/i))) {
    return toggleIn(m[2], /^(?:enable|activate)$/i.test(m[1]) ? 'on' : 'off');
  }

  if ((m = clause.match(/^(?:type|enter|write|input)\s+(.+?)(?:\s+(?:in|into|on)\s+(?:the\s+)?(.+?))?$/i))) {
    const into = m[2] ? stripNoun(m[2], /\s+(?:app|field|box)$/i) : undefined;
    return [{ kind: 'type', text: m[1], into, submit: false }];
  }
  if ((m = clause.match(/^(?:open|go\s+to|visit|navigate\s+to|browse\s+to|load|show(?:\s+me)?|bring\s+up|pull\s+up|take\s+me\s+to)\s+(\S+)$/i)) && WEB_ADDRESS.test(m[1])) {
    return [{ kind: 'visit', url: webUrl(m[1]) }];
  }
  // "go to the About page": a place, found as "show me the About page" finds it (not an app to launch).
  if ((m = clause.match(/^(?:open|go\s+(?:in)?to|navigate\s+to|head\s+to|get\s+to|switch\s+to)\s+(?:the\s+|my\s+)?(.+?)\s+(?:page|screen|section)$/i)) && isBareTarget(m[1])) {
    return [{ kind: 'show', target: m[1].trim(), page: true }];
  }
  if ((m = clause.match(/^(?:open|launch|start|run|go\s+(?:in)?to|navigate\s+to|head\s+to|get\s+to|switch\s+to|show(?:\s+me)?|bring\s+up|pull\s+up)\s+(?:up\s+)?(?:the\s+)?(.+?)(?:\s+(?:app|page|settings?))?$/i))) {
    return [{ kind: 'open', app: m[1].trim() }];
  }
  if ((m = clause.match(/^(?:tap|press|click|select|choose|hit|touch|push|pick)\s+(?:on\s+)?(?:the\s+)?(.+)$/i))) {
    return [{ kind: 'tap', target: stripNoun(m[1], /\s+(?:button|row|icon|cell|item|link|tab|option|glyph|symbol)$/i) }];
  }

  // "turn on Wi-Fi and Bluetooth", "open Settings, then General": the bare target repeats the verb before it.
  if (previous && isBareTarget(clause)) {
    if (previous.kind === 'toggle') return one(toggle(clause, previous.on ? 'on' : 'off'));
    if (previous.kind === 'tap') return [{ kind: 'tap', target: clause.trim() }];
    if (previous.kind === 'open') return [{ kind: 'open', app: clause.replace(/^the\s+/i, '').trim() }];
  }
  return undefined;
}

function webUrl(address: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`;
}

function one(intent: Intent | undefined): Intent[] | undefined {
  return intent ? [intent] : undefined;
}

/** "opne Settings" → "open Settings": a verb one letter off (verbs of four letters or more). */
function fixVerbTypo(clause: string): string {
  const [first] = clause.split(/\s+/, 1);
  const word = first.toLowerCase();
  if (word.length < 4 || VERBS.includes(word)) return clause;
  const verb = VERBS.find((v) => oneLetterOff(word, v));
  return verb ? verb + clause.slice(first.length) : clause;
}

function oneLetterOff(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** "open it" after "scroll until you see Wallpaper" taps what was found; undefined when "it" names nothing. */
function resolvePronoun(intent: Intent, previous: Intent | undefined): Intent | undefined {
  if (intent.kind === 'close' && PRONOUN.test(intent.app)) {
    const named = previous?.kind === 'open' ? previous.app : undefined;
    return named ? { kind: 'close', app: named } : undefined;
  }
  if (intent.kind === 'gesture' && PRONOUN.test(intent.target)) {
    const named = namedTarget(previous);
    return named ? { ...intent, target: named } : undefined;
  }
  const target = intent.kind === 'open' ? intent.app : intent.kind === 'tap' || intent.kind === 'toggle' ? intent.target : undefined;
  if (target === undefined || !PRONOUN.test(target)) return intent;
  const named = namedTarget(previous);
  if (!named) return undefined;
  if (intent.kind === 'open') return previous?.kind === 'find' || previous?.kind === 'tap' ? { kind: 'tap', target: named } : { kind: 'open', app: named };
  if (intent.kind === 'toggle') return { ...intent, target: named };
  return { kind: 'tap', target: named };
}

/** "turn on Dark theme in Settings", "turn the 9:30 alarm on in Clock": the app opened, then its switch. */
function toggleIn(rawTarget: string, state: string): Intent[] | undefined {
  const m = rawTarget.match(/^(.+?)\s+(?:in|inside|within)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i);
  if (m && isBareTarget(m[2]) && !/^(?:phone|iphone|device|android|background|foreground|settings\s+app)$/i.test(m[2])) {
    const switched = toggle(m[1], state);
    if (switched) return switched.kind === 'device' ? [switched] : [{ kind: 'open', app: m[2].trim() }, switched];
  }
  return one(toggle(rawTarget, state));
}

function toggle(rawTarget: string, state: string): Intent | undefined {
  const target = stripNoun(rawTarget.replace(/^the\s+/i, ''), /\s+(?:switch|toggle|setting|option)$/i);
  const appearance = appearanceToggle(target, state.toLowerCase() === 'on');
  if (appearance) return appearance;
  return target ? { kind: 'toggle', target, on: state.toLowerCase() === 'on' } : undefined;
}

function stripNoun(text: string, noun: RegExp): string {
  const stripped = text.trim().replace(noun, '').trim();
  return stripped.length > 0 ? stripped : text.trim();
}

function isBareTarget(clause: string): boolean {
  return clause.split(/\s+/).length <= 4 && !CLAUSE_VERB.test(clause) && !NOT_A_NAME.test(clause);
}

function unmask(text: string, quoted: string[], keepQuotes = false): string {
  return text.replace(/\uE001/g, ', ').replace(/\uE000(\d+)\uE000/g, (_all, i: string) => (keepQuotes ? `"${quoted[Number(i)]}"` : quoted[Number(i)]));
}

function restoreQuotes(intent: Intent, quoted: string[]): Intent {
  const fix = (text: string) => unmask(text, quoted);
  switch (intent.kind) {
    case 'open':
      return { ...intent, app: fix(intent.app) };
    case 'toggle':
    case 'tap':
    case 'find':
      return { ...intent, target: fix(intent.target) };
    case 'type':
      return { ...intent, text: fix(intent.text), into: intent.into === undefined ? undefined : fix(intent.into) };
    case 'gesture':
    case 'wait':
      return { ...intent, target: fix(intent.target) };
    case 'mark':
      return { ...intent, item: fix(intent.item) };
    case 'send':
      return { ...intent, text: fix(intent.text), to: intent.to === undefined ? undefined : fix(intent.to) };
    case 'search':
      return { ...intent, query: fix(intent.query) };
    case 'tab':
      return { ...intent, tab: fix(intent.tab) };
    case 'show':
      return { ...intent, target: fix(intent.target), app: intent.app === undefined ? undefined : fix(intent.app) };
    case 'device':
      return typeof intent.arguments['text'] === 'string' ? { ...intent, arguments: { ...intent.arguments, text: fix(intent.arguments['text']) } } : intent;
    case 'ask':
      return intent.target === undefined ? intent : { ...intent, target: fix(intent.target) };
    case 'install':
      return { ...intent, path: fix(intent.path) };
    case 'app':
    case 'app_state':
      return { ...intent, app: fix(intent.app) };
    default:
      return intent;
  }
}

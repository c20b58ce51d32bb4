import type { Intent, ScrollDirection } from './intents';

/**
 * The offline planner's grammar. A goal is clauses joined by "then", "and", commas, semicolons or full
 * stops; each clause is one of:
 *
 *   open|launch|start|go to|switch to [the] APP [app]
 *   go home | go to the home screen | press [the] home [button]
 *   go back | back | navigate back
 *   scroll|swipe up|down|left|right
 *   turn|switch on|off [the] TARGET | turn|switch [the] TARGET on|off | enable|disable [the] TARGET
 *   type|enter|write TEXT [in|into [the] APP-OR-FIELD] [and submit|press return]   (TEXT may be "quoted")
 *   tap|press|click|select|choose [on] [the] TARGET [button|row|icon|switch]
 *
 * Matching is case-insensitive; names keep the case the user wrote. A bare target after a toggle or tap
 * ("turn on Wi-Fi and Bluetooth") repeats that verb.
 */
export type ParseResult = { ok: true; intents: Intent[] } | { ok: false; clause: string; message: string };

export const GRAMMAR_SUMMARY =
  'The offline planner understands: open APP, tap TARGET, turn on/off SWITCH, type TEXT in APP, scroll up/down, go home, go back — joined by "then", "and" or commas.';

const OPPOSITE: Record<ScrollDirection, ScrollDirection> = { up: 'down', down: 'up', left: 'right', right: 'left' };
const QUOTE = /"([^"]*)"|“([^”]*)”|'([^']*)'/g;
const SUBMIT = /^(?:submit|send|search|press\s+(?:return|enter|search|go))$/i;
const SEPARATOR = /\s*(?:[,;]|\.(?=\s|$))\s*(?:and\s+then\s+|then\s+|and\s+)?|\s+and\s+then\s+|\s+then\s+|\s+and\s+/i;

export function parseGoal(goal: string): ParseResult {
  const quoted: string[] = [];
  const masked = goal.replace(QUOTE, (_all, a?: string, b?: string, c?: string) => {
    quoted.push(a ?? b ?? c ?? '');
    return `\uE000${quoted.length - 1}\uE000`;
  });
  const clauses = masked
    .split(SEPARATOR)
    .map((clause) => clause.trim().replace(/[.!]+$/, '').trim())
    .filter((clause) => clause.length > 0);
  if (clauses.length === 0) return { ok: false, clause: goal, message: 'The goal is empty.' };

  const intents: Intent[] = [];
  for (const clause of clauses) {
    const previous = intents[intents.length - 1];
    // "type hello in Notes and submit": the submit belongs to the typing before it.
    if (previous?.kind === 'type' && SUBMIT.test(clause)) {
      previous.submit = true;
      continue;
    }
    const intent = parseClause(clause, intents[intents.length - 1]);
    const original = unmask(clause, quoted, true);
    if (!intent) {
      return { ok: false, clause: original, message: `I cannot do "${original}" without a model. ${GRAMMAR_SUMMARY}` };
    }
    intents.push(restoreQuotes(intent, quoted));
  }
  return { ok: true, intents };
}

function parseClause(raw: string, previous: Intent | undefined): Intent | undefined {
  const clause = raw.replace(/^(?:please|now|first|finally|next|also)\s+/i, '').replace(/\s+please$/i, '');
  let m: RegExpMatchArray | null;

  if (/^(?:go\s+(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|return\s+(?:to\s+)?(?:the\s+)?home(?:\s+screen)?|press\s+(?:the\s+)?home(?:\s+button)?|home(?:\s+screen)?)$/i.test(clause)) {
    return { kind: 'home' };
  }
  if (/^(?:(?:go|navigate|move)\s+back|back|tap\s+(?:the\s+)?back(?:\s+button)?)$/i.test(clause)) return { kind: 'back' };

  if ((m = clause.match(/^(scroll|swipe)(?:\s+(up|down|left|right))?(?:\s+(?:a\s+bit|once|the\s+(?:list|page|screen)))?$/i))) {
    const direction = (m[2] ?? 'down').toLowerCase() as ScrollDirection;
    // Scrolling moves the content: to scroll down, the finger swipes up.
    const finger = m[1].toLowerCase() === 'scroll' ? OPPOSITE[direction] : direction;
    return { kind: 'scroll', direction, finger };
  }

  if ((m = clause.match(/^(?:turn|switch|toggle|set)\s+(on|off)\s+(.+)$/i))) return toggle(m[2], m[1]);
  if ((m = clause.match(/^(?:turn|switch|toggle|set)\s+(.+?)\s+(on|off)$/i))) return toggle(m[1], m[2]);
  if ((m = clause.match(/^(enable|disable|activate|deactivate)\s+(.+)$/i))) {
    return toggle(m[2], /^(?:enable|activate)$/i.test(m[1]) ? 'on' : 'off');
  }

  if ((m = clause.match(/^(?:type|enter|write|input)\s+(.+?)(?:\s+(?:in|into|on)\s+(?:the\s+)?(.+?))?$/i))) {
    const into = m[2] ? stripNoun(m[2], /\s+(?:app|field|box)$/i) : undefined;
    return { kind: 'type', text: m[1], into, submit: false };
  }
  if ((m = clause.match(/^(?:open|launch|start|run|go\s+to|switch\s+to|show)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i))) {
    return { kind: 'open', app: m[1].trim() };
  }
  if ((m = clause.match(/^(?:tap|press|click|select|choose|hit|touch)\s+(?:on\s+)?(?:the\s+)?(.+)$/i))) {
    return { kind: 'tap', target: stripNoun(m[1], /\s+(?:button|row|icon|cell|item|link|tab|option)$/i) };
  }

  // "turn on Wi-Fi and Bluetooth": the bare second target repeats the verb before it.
  if (previous && isBareTarget(clause)) {
    if (previous.kind === 'toggle') return toggle(clause, previous.on ? 'on' : 'off');
    if (previous.kind === 'tap') return { kind: 'tap', target: clause.trim() };
  }
  return undefined;
}

function toggle(rawTarget: string, state: string): Intent | undefined {
  const target = stripNoun(rawTarget.replace(/^the\s+/i, ''), /\s+(?:switch|toggle|setting|option)$/i);
  return target ? { kind: 'toggle', target, on: state.toLowerCase() === 'on' } : undefined;
}

function stripNoun(text: string, noun: RegExp): string {
  const stripped = text.trim().replace(noun, '').trim();
  return stripped.length > 0 ? stripped : text.trim();
}

function isBareTarget(clause: string): boolean {
  return clause.split(/\s+/).length <= 4 && !/^(?:open|tap|type|turn|scroll|go|press)\b/i.test(clause);
}

function unmask(text: string, quoted: string[], keepQuotes = false): string {
  return text.replace(/\uE000(\d+)\uE000/g, (_all, i: string) => (keepQuotes ? `"${quoted[Number(i)]}"` : quoted[Number(i)]));
}

function restoreQuotes(intent: Intent, quoted: string[]): Intent {
  const fix = (text: string) => unmask(text, quoted);
  switch (intent.kind) {
    case 'open':
      return { ...intent, app: fix(intent.app) };
    case 'toggle':
    case 'tap':
      return { ...intent, target: fix(intent.target) };
    case 'type':
      return { ...intent, text: fix(intent.text), into: intent.into === undefined ? undefined : fix(intent.into) };
    default:
      return intent;
  }
}

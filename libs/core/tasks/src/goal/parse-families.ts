import type { AskRead, Intent } from './intents';

/**
 * The clause grammar of issue 38's intent families, one small table each: plain-word device controls (verbs →
 * catalog operations), an item's control, tabs, messages, search fields, constraints, questions — and the
 * goals with real-world consequences that stay refusals. parse-goal.ts joins these with its own clauses.
 * Clause text arrives masked: quoted text is a placeholder (\uE000n\uE000) restored later.
 */

/** Goals no offline planner takes without a person: why, for the failure message. */
const REFUSED_GOALS: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  {
    pattern:
      /\b(?:call|dial|phone|ring|text|message|sms|contact)\b.*?(?:\b(?:911|112|999|000|110|119|100|sos)\b|\bemergency(?:\s+services|\s+number)?\b|\bambulance\b|\bpolice\b|\bfire\s+(?:brigade|department)\b)|\bemergency\s+(?:call|sos)\b/i,
    why: 'calling or texting emergency numbers',
  },
  {
    pattern:
      /\b(?:send|pay|transfer|wire|give|tip|donate|lend)\b.*?(?:[$€£]\s?\d|\b\d+(?:[.,]\d+)?\s*(?:dollars?|euros?|pounds?|bucks|usd|eur|gbp)\b|\b(?:money|cash|funds)\b)|\b(?:venmo|zelle|paypal|apple\s+cash|cash\s+app)\b/i,
    why: 'sending money',
  },
];

/** Clause verbs with real-world consequences (checked after an item's or a message's own words are taken out). */
const REFUSED_CLAUSES: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  { pattern: /^(?:buy|purchase|order|pre-?order|subscribe|rent|check\s*out|pay\s+for|add\s+\S+(?:\s+\S+)?\s+to\s+(?:the\s+|my\s+)?cart)\b/i, why: 'purchases' },
  { pattern: /^(?:complete|finish|finalize|finalise|confirm|place|submit)\s+(?:the\s+|my\s+|this\s+|a\s+)?(?:purchase|order|payment|checkout|transaction)\b/i, why: 'purchases' },
  {
    pattern: /^(?:delete|erase|wipe|remove|empty|uninstall|format|factory[-\s]?reset|reset\s+(?:all|the\s+phone|my\s+phone|everything)|clear\s+(?:all|my|every|the\s+(?:history|data)))\b/i,
    why: 'deleting data',
  },
];

/** Why the whole goal is refused outright (before any clause is read), or undefined. */
export function refusalOfGoal(goal: string): string | undefined {
  return REFUSED_GOALS.find((r) => r.pattern.test(goal))?.why;
}

export function refusalOfClause(clause: string): string | undefined {
  return REFUSED_CLAUSES.find((r) => r.pattern.test(clause))?.why;
}

export function refusalMessage(why: string, clause: string): string {
  return `Refused: "${clause}" means ${why}, which has real-world consequences and needs a person. Nothing was touched.`;
}

/** "…without changing anything else" at the end of a goal: the goal without it, and whether it was there. */
export function withoutConstraintTail(goal: string): { goal: string; nothingElse: boolean } {
  const tail = /\s*,?\s*(?:but\s+|and\s+)?(?:without\s+(?:changing|touching|altering)\s+anything\s+else|(?:and\s+)?nothing\s+else|(?:and\s+)?(?:don'?t|do\s+not)\s+(?:change|touch)\s+anything\s+else|(?:and\s+)?leave\s+(?:everything|the\s+rest)\s+(?:else\s+)?(?:as\s+(?:it\s+is|is)|alone|untouched))\s*[.!]*$/i;
  return tail.test(goal) ? { goal: goal.replace(tail, ''), nothingElse: true } : { goal, nothingElse: false };
}

const DONE_WORDS = /^(?:done|complete|completed|finished|checked|ticked|crossed\s+off|checked\s+off|read)$/i;
const UNDONE_WORDS = /^(?:not\s+done|undone|incomplete|not\s+complete|unchecked|unticked|open|to\s*do|unread)$/i;

/** "X in Reminders" / "X on my list": the item and the app it is in. */
function itemAndApp(text: string): { item: string; app?: string } {
  const m = text.match(/^(.+?)\s+(?:in|on|from)\s+(?:the\s+|my\s+)?(.+?)(?:\s+app)?$/i);
  if (!m) return { item: unquoteArticle(text) };
  const where = m[2].trim();
  return { item: unquoteArticle(m[1]), app: /^(?:list|to-?do\s+list|checklist)$/i.test(where) ? undefined : where };
}

function unquoteArticle(text: string): string {
  return text.trim().replace(/^(?:the\s+(?:reminder|item|task|todo|to-do)\s+)/i, '');
}

/** What an item-done clause may not be about: those are purchases and payments, left to the refusals. */
const NOT_AN_ITEM = /\b(?:purchase|order|payment|checkout|check-out|transaction|transfer|subscription)\b/i;
/** Words that make "X is done" a clause of another family ("wait until X is done"). */
const NOT_AN_ITEM_START = /^(?:wait|when|once|after|until|till|if|whether|check|see|tell|let|make|is|are|it|that|this|everything|all|nothing|something|anything|tap|press|click|hit|select|type|open|go|scroll|turn|switch)\b/i;

/**
 * An item set done (or not), in the families people use: "mark X as done|complete|finished", "check|tick|cross
 * X off", "check off X", "complete X", "finish X", "X is done", "I finished X", "set X to done", and the
 * opposites ("uncheck X", "mark X as not done", "X is not done").
 */
export function parseMark(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  const mark = (text: string, done: boolean): Intent[] | undefined => {
    if (NOT_AN_ITEM.test(text)) return undefined;
    const { item, app } = itemAndApp(text);
    return item ? [{ kind: 'mark', item, done, app }] : undefined;
  };
  if ((m = clause.match(/^(?:mark|set|flag)\s+(.+?)\s+(?:as\s+|to\s+)?((?:not\s+)?\S+(?:\s+\S+)?)$/i))) {
    const state = m[2].trim();
    if (DONE_WORDS.test(state)) return mark(m[1], true);
    if (UNDONE_WORDS.test(state)) return mark(m[1], false);
  }
  if ((m = clause.match(/^mark\s+(.+?)\s+off$/i))) return mark(m[1], true);
  if ((m = clause.match(/^(?:check|tick|cross|strike|mark)\s+off\s+(.+)$/i)) || (m = clause.match(/^(?:check|tick|cross|strike)\s+(.+?)\s+off(?:\s+(?:in|on)\s+.+)?$/i))) {
    return mark(clause.match(/\soff\s+(?:in|on)\s/i) ? clause.replace(/^(?:check|tick|cross|strike)\s+/i, '').replace(/\s+off(?=\s+(?:in|on)\s)/i, '') : m[1], true);
  }
  // "complete X", "finish the task X", "I've finished X".
  if ((m = clause.match(/^(?:(?:i\s+(?:have\s+|'ve\s+)?|i've\s+)?(?:complete|completed|finish|finished|did|done)|tick|strike\s+through)\s+(?:the\s+)?(?:(?:reminder|task|item|to-?do)\s+)?(.+)$/i))) return mark(m[1], true);
  // "Buy milk is done", "Call the dentist: done", "Water the plants is not done".
  if ((m = clause.match(/^(.+?)(?:\s+(?:is|are|was|has\s+been|have\s+been)\s+|\s*:\s*)((?:not\s+)?(?:done|complete|completed|finished|checked|ticked))$/i)) && !NOT_AN_ITEM_START.test(m[1])) {
    return mark(m[1], !/^not\s/i.test(m[2]));
  }
  if ((m = clause.match(/^(?:uncheck|untick|unmark|reopen)\s+(.+)$/i))) return mark(m[1], false);
  return undefined;
}

/** A message's text: the quoted part, or the words as written. */
function messageText(text: string): string {
  return text.trim().replace(/^(?:that\s+|:\s*)/i, '').trim();
}

/**
 * "send Ada a message saying running late", "text Ada 'see you at six'", "message Ada: on my way",
 * "send a text to Ada that says X", "tell Ada that X", "reply 'sounds good'".
 */
export function parseSend(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  const SAYING = String.raw`(?:\s*:\s*|\s+(?:saying|that\s+says|which\s+says|with\s+the\s+text|with|reading|:)\s+|\s+(?=\uE000))`;
  const send = (to: string | undefined, text: string): Intent[] => [{ kind: 'send', to: to?.trim().replace(/^to\s+/i, ''), text: messageText(text) }];
  if ((m = clause.match(new RegExp(String.raw`^send\s+(?:an?\s+)?(?:message|text|sms|imessage|note)\s+to\s+(.+?)${SAYING}(.+)$`, 'i')))) return send(m[1], m[2]);
  if ((m = clause.match(new RegExp(String.raw`^send\s+(.+?)\s+(?:an?\s+)?(?:message|text|sms|imessage)${SAYING}(.+)$`, 'i')))) return send(m[1], m[2]);
  if ((m = clause.match(new RegExp(String.raw`^(?:text|message|sms|imessage)\s+(\S+(?:\s+[A-Z]\S*)?)${SAYING}(.+)$`, 'i')))) return send(m[1], m[2]);
  if ((m = clause.match(/^(?:text|message)\s+(\S+)\s+(.+)$/i))) return send(m[1], m[2]);
  if ((m = clause.match(/^tell\s+(\S+)\s+(?:that\s+)?(.+)$/i)) && !/^(?:me|us|it|them)$/i.test(m[1])) return send(m[1], m[2]);
  if ((m = clause.match(/^(?:reply|respond|write\s+back)(?:\s+to\s+(.+?))?(?:\s+(?:with|saying))?\s+(.+)$/i))) return send(m[1], m[2]);
  return undefined;
}

/** "search Maps for coffee", "search for coffee in Maps", "look up pizza in Maps", "find coffee on Maps". */
export function parseSearch(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  if ((m = clause.match(/^search\s+(?:in\s+)?(?:the\s+)?(.+?)(?:\s+app)?\s+for\s+(.+)$/i))) return [{ kind: 'search', app: m[1].trim(), query: m[2].trim() }];
  if ((m = clause.match(/^(?:search(?:\s+for)?|look\s+up|find|look\s+for)\s+(.+?)\s+(?:in|on|using|with)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i))) {
    return [{ kind: 'search', app: m[2].trim(), query: m[1].trim() }];
  }
  if ((m = clause.match(/^(?:search\s+for|look\s+up)\s+(.+)$/i))) return [{ kind: 'search', query: m[1].trim() }];
  return undefined;
}

/** Plain-word device controls, closing apps, gestures on a target, waits, tabs and constraints. */
export function parseFamilyClause(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  // Alerts closed by a word the alert grammar lacks.
  if (/^close\s+(?:the\s+)?(?:alert|popup|pop-up|prompt|dialog)$/i.test(clause)) return [{ kind: 'answer', words: 'dismiss' }];
  // Closing an app.
  if ((m = clause.match(/^(?:close|quit|exit|kill|force[-\s]?quit|force[-\s]?close|terminate|shut\s+down)\s+(?:the\s+|out\s+of\s+(?:the\s+)?)?(.+?)(?:\s+app)?$/i)) && !/^(?:keyboard|alert|to\s.*|home.*)$/i.test(m[1])) {
    return [{ kind: 'close', app: m[1].trim() }];
  }
  // Gestures on a target.
  if ((m = clause.match(/^(?:long[-\s]?press|long[-\s]?tap|press\s+and\s+hold|touch\s+and\s+hold|tap\s+and\s+hold|hold(?:\s+down)?)\s+(?:on\s+)?(?:the\s+)?(.+?)(?:\s+(?:button|row|icon|cell|item))?$/i))) {
    return [{ kind: 'gesture', gesture: 'long_press', target: m[1].trim() }];
  }
  if ((m = clause.match(/^double[-\s]?(?:tap|click|press)\s+(?:on\s+)?(?:the\s+)?(.+?)(?:\s+(?:button|row|icon|cell|item))?$/i))) {
    return [{ kind: 'gesture', gesture: 'double_tap', target: m[1].trim() }];
  }
  // Waiting.
  if (
    (m = clause.match(
      /^wait\s+(?:until|till|til|for)\s+(?:the\s+)?(.+?)(?:\s+(appears|shows(?:\s+up)?|is\s+(?:visible|shown|there|on\s+screen)|comes\s+up|to\s+(?:appear|show(?:\s+up)?)|disappears|is\s+gone|goes\s+away|vanishes|to\s+disappear|to\s+go\s+away))?$/i,
    ))
  ) {
    return [{ kind: 'wait', target: m[1].trim(), gone: /disappear|gone|away|vanish/i.test(m[2] ?? '') }];
  }
  // Tabs.
  if ((m = clause.match(/^(?:open|show|go\s+to|switch\s+to|select|view|pick|choose)\s+(?:me\s+)?(?:the\s+)?(.+?)\s+tab$/i))) return [{ kind: 'tab', tab: m[1].trim() }];
  // Constraints.
  if ((m = clause.match(/^(?:leave|keep)\s+(?:the\s+)?(.+?)\s+(on|off|enabled|disabled|as\s+it\s+is|alone|untouched|unchanged)$/i))) {
    const state = m[2].toLowerCase();
    return [{ kind: 'keep', target: m[1].trim(), on: state === 'on' || state === 'enabled' ? true : state === 'off' || state === 'disabled' ? false : undefined }];
  }
  if ((m = clause.match(/^(?:don'?t|do\s+not|never)\s+(?:touch|change|turn\s+off|turn\s+on|disable|enable)\s+(?:the\s+)?(.+)$/i)) && !/^anything(?:\s+else)?$/i.test(m[1])) {
    return [{ kind: 'keep', target: m[1].trim() }];
  }
  return undefined;
}

/** "open the timer in Clock", "show the stopwatch in Clock": the app, then the tab or row of that name. */
export function parseInApp(clause: string): { target: string; app: string } | undefined {
  const m = clause.match(/^(?:open|show|go\s+to|switch\s+to|select|view)\s+(?:me\s+)?(?:the\s+|my\s+)?(.+?)(?:\s+tab)?\s+(?:in|on|of)\s+(?:the\s+)?(.+?)(?:\s+app)?$/i);
  return m ? { target: m[1].trim(), app: m[2].trim() } : undefined;
}

const QUESTION_START = /^(?:what(?:'s|\s+is|\s+are|\s+version|\s+kind|\s+model|\s+app)?|which|how|is|are|does|do|tell\s+me|show\s+me|check\s+(?:if|whether)|find\s+out|read|say)\b/i;

/** Device facts a question may ask for, read from device_status. */
const STATUS_QUESTIONS: ReadonlyArray<{ read: AskRead; subject: string; pattern: RegExp; target?: string }> = [
  {
    read: 'os_version',
    subject: 'the system version',
    pattern: /\b(?:ios|ipados|android|os|operating\s+system|system|software|firmware)\s+version\b|\bversion\s+of\s+(?:ios|android|the\s+(?:os|operating\s+system|system|software))\b|\b(?:which|what)\s+(?:ios|android)\b|\bversion\b.*\b(?:ios|android|running)\b/i,
  },
  { read: 'value', subject: 'the model name', target: 'Model Name', pattern: /\bmodel\b|\bwhat\s+(?:kind|type)\s+of\s+(?:phone|device|iphone)\b|\bwhat\s+(?:phone|device|iphone)\s+is\s+this\b/i },
  { read: 'device_name', subject: "the device's name", pattern: /\b(?:device|phone|iphone)(?:'s)?\s+name\b|\bname\s+of\s+(?:the|this|my)\s+(?:phone|device|iphone)\b|\b(?:phone|device)\s+called\b/i },
  { read: 'battery', subject: 'the battery level', pattern: /\bbattery\b|\bcharge\s+level\b/i },
  { read: 'orientation', subject: 'the orientation', pattern: /\borientation\b|\bin\s+(?:landscape|portrait)\b/i },
  { read: 'locked', subject: 'whether the phone is locked', pattern: /\b(?:phone|screen|device|iphone)\s+(?:is\s+)?locked\b/i },
  { read: 'foreground_app', subject: 'the app in front', pattern: /\b(?:which|what)\s+app\s+is\s+(?:open|showing|in\s+(?:front|the\s+foreground)|running|on\s+screen)|\bforeground\s+app\b/i },
];

const NOT_A_LABEL = /\b(?:like|tomorrow|today|tonight|yesterday|meaning|point|best|worst|why|going\s+on|happening|up)\b/i;

/** A question clause: "what iOS version is this", "is Wi-Fi on", "how many reminders are left", "what is the serial number". */
export function parseQuestion(asked: string): Intent[] | undefined {
  if (!QUESTION_START.test(asked)) return undefined;
  // "tell me how many…", "find out whether…": the question itself.
  const clause = asked.replace(/^(?:tell\s+me|let\s+me\s+know|find\s+out|show\s+me)\s+(?=how\b|what\b|which\b|is\b|are\b|if\b|whether\b)/i, '').replace(/^(?:if|whether)\s+(.+?)\s+(is|are)\s+/i, '$2 $1 ');
  let m: RegExpMatchArray | null;
  // The model name as the device shows it (Settings › General › About): device_status has only the family.
  for (const q of STATUS_QUESTIONS) if (q.pattern.test(clause)) return [{ kind: 'ask', subject: q.subject, read: q.read, target: q.target }];
  if ((m = clause.match(/^how\s+many\s+(.+?)(?:\s+(?:are|do|have|is|remain|left|there|still|in|on|does)\b(.*))?$/i))) {
    const inApp = (m[2] ?? '').match(/\b(?:in|on)\s+(?:the\s+|my\s+)?(.+?)(?:\s+app)?$/i);
    return [{ kind: 'ask', subject: `how many ${m[1].trim()}${/\b(?:left|remain|still|open|not\s+done)\b/i.test(m[2] ?? '') ? ' are left' : ''}`, read: 'count', target: m[1].trim(), app: inApp?.[1].trim() }];
  }
  if (
    (m = clause.match(/^(?:is|are)\s+(?:the\s+|my\s+)?(.+?)\s+(?:(?:turned|switched)\s+)?(?:on|off|enabled|disabled|active|activated)$/i)) ||
    (m = clause.match(/^(?:check|tell\s+me|find\s+out|see)\s+(?:if|whether)\s+(?:the\s+|my\s+)?(.+?)\s+(?:is|are)\s+(?:(?:turned|switched)\s+)?(?:on|off|enabled|disabled|active)$/i))
  ) {
    return [{ kind: 'ask', subject: `whether ${m[1].trim()} is on`, read: 'switch', target: m[1].trim() }];
  }
  if ((m = clause.match(/^(?:what(?:'s|\s+is|\s+are)|tell\s+me|read|say)\s+(?:me\s+)?(?:the\s+|my\s+)?(.+?)(?:\s+(?:in|on)\s+(?:the\s+)?(.+?)(?:\s+app)?)?$/i))) {
    // A label the screen may show ("the serial number"), not the world's questions ("the weather like tomorrow").
    if (m[1].trim().split(/\s+/).length > 3 || NOT_A_LABEL.test(m[1])) return undefined;
    return [{ kind: 'ask', subject: `the ${m[1].trim()}`, read: 'value', target: m[1].trim(), app: m[2]?.trim() }];
  }
  return undefined;
}

/**
 * "show me X", "take me to X", "bring up X", "pull up X", "let me see X" [in APP]: one clause whose meaning the
 * phone decides, not a word list (offline/show.ts): X may be an app, a tab, a screen, or a value to read.
 * "show the X tab" stays a tab (parse-families.ts), a web address a visit, "show me how many…" a question.
 */
const SHOW = /^(?:show(?:\s+me)?|display|bring\s+up|pull\s+up|take\s+me\s+to|get\s+me\s+to|let\s+me\s+see|i\s+want\s+to\s+see)\s+(?:the\s+|my\s+)?(.+?)(\s+(?:screen|page|view|section|settings))?(?:\s+(?:in|on|of|from)\s+(?:the\s+)?(.+?)(?:\s+app)?)?$/i;

/** `page`: the user named a place ("the About phone page"), never a value to read. */
export function parseShow(clause: string): { target: string; app?: string; page: boolean } | undefined {
  const m = clause.match(SHOW);
  if (!m || /\s+tab$/i.test(m[1]) || /^(?:how|what|which|whether|if|me|it|that|this|them)\b/i.test(m[1])) return undefined;
  return { target: m[1].trim(), app: m[3]?.trim(), page: m[2] !== undefined };
}

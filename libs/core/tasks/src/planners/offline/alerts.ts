/**
 * Which button answers a system alert that stands in the way of a goal: the one the goal's words name,
 * else the least permissive choice that still lets the goal go on.
 */

/** Goals that need what the alert asks for (location, camera…): refusing would stop them. */
const NEEDS_PERMISSION = /\b(?:my\s+location|current\s+location|where\s+i\s+am|locate\s+me|my\s+position|navigate|directions|allow|accept|grant|permit)\b/i;
const REFUSES = /\b(?:don['\u2019]?t\s+allow|do\s+not\s+allow|deny|refuse|decline|reject|block|dismiss)\b/i;

/** Least permissive first (Android writes "Don\u2019t allow" with a typographic apostrophe). */
const REFUSING = [/^don['\u2019]?t\s+allow/i, /^not\s+now$/i, /^(?:cancel|close|dismiss|later)$/i, /^ok(?:ay)?$/i, /^allow\s+once$/i, /^only\s+this\s+time$/i];
/** Permissive answers, the narrowest first. */
const GRANTING = [/^allow\s+once$/i, /^only\s+this\s+time$/i, /^(?:allow\s+)?while\s+using/i, /^allow$/i, /^ok(?:ay)?$/i];
/** "allow once" names Android's "Only this time"; "allow while using" its "While using the app". */
const SAME_ANSWER: Array<[RegExp, RegExp]> = [
  [/\ballow\s+once\b/i, /^only\s+this\s+time$/i],
  [/\bonly\s+this\s+time\b/i, /^allow\s+once$/i],
  [/\bwhile\s+using\b/i, /^(?:allow\s+)?while\s+using/i],
];

export interface AlertAnswer {
  button: string;
  why: string;
}

/** The button to tap on an alert, given the goal; undefined when none of the buttons is a safe answer. */
export function answerAlert(goal: string, buttons: readonly string[]): AlertAnswer | undefined {
  const named = buttons
    .filter((b) => new RegExp(`\\b${escape(b)}\\b`, 'i').test(goal))
    .sort((a, b) => b.length - a.length)[0];
  if (named) return { button: named, why: `as the goal says` };
  for (const [words, pattern] of SAME_ANSWER) {
    const button = words.test(goal) ? buttons.find((b) => pattern.test(b.trim())) : undefined;
    if (button) return { button, why: 'as the goal says' };
  }
  const granting = !REFUSES.test(goal) && NEEDS_PERMISSION.test(goal);
  for (const pattern of granting ? GRANTING : REFUSING) {
    const button = buttons.find((b) => pattern.test(b.trim()));
    if (button) {
      return {
        button,
        why: granting ? 'the narrowest permission the goal needs' : 'the least permissive choice that lets the goal continue',
      };
    }
  }
  return buttons.length === 1 ? { button: buttons[0], why: 'the only choice' } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/['\u2019]/g, "['\u2019]");
}

import type { Intent } from './intents';

/**
 * Device controls in plain words, one catalog operation each: lock and unlock, orientation, appearance, the
 * clipboard, the keyboard. Each is a small grammar — verb, object, state — rather than a list of sentences:
 * "rotate the screen to landscape", "turn the phone sideways", "make it portrait again", "hold it upright".
 * Clause text arrives masked (quoted text is \uE000n\uE000).
 */

type DeviceOperation = Extract<Intent, { kind: 'device' }>['operation'];

function device(operation: DeviceOperation, args: Record<string, unknown>, says: string): Intent {
  return { kind: 'device', operation, arguments: args, says };
}

/** What a device control acts on: the phone, its screen, or "it" (nothing else locks or rotates). */
const THE_PHONE = String.raw`(?:(?:the|my|this)\s+)?(?:phone|iphone|device|screen|android|display|tablet)|it|everything`;
/** Words for each orientation, as people say them. */
const LANDSCAPE = String.raw`landscape|horizontal(?:ly)?|sideways|wide(?:screen)?|(?:on\s+)?(?:its|it's|the|a)\s+side`;
const PORTRAIT = String.raw`portrait|vertical(?:ly)?|upright|straight\s+up|(?:the\s+)?right\s+(?:side|way)\s+up`;
const ORIENTATION = String.raw`(?:the\s+)?(?:screen\s+|display\s+)?(?:orientation|view|layout|rotation)`;
const TURN_VERB = String.raw`(?:rotate|turn|switch|flip|put|change|set|go|hold|make|tilt|return|move|bring|get|spin)`;
/**
 * VERB [OBJECT | the orientation] [back|again] [to|into|in|on|be] [the] STATE [mode|orientation|view] [again|back|now]:
 * every part but the state may be left out ("landscape", "back to portrait", "make it portrait again").
 */
const ORIENT = new RegExp(
  String.raw`^(?:(?:go\s+)?back\s+to\s+|${TURN_VERB}(?:\s+(?:${THE_PHONE}))?(?:\s+(?:${ORIENTATION}))?(?:\s+(?:back|again))?(?:\s+(?:to|into|in|on|onto|be))?\s+)?(?:the\s+)?(?:(${LANDSCAPE})|(${PORTRAIT}))(?:\s+(?:mode|orientation|view|layout|format|position))?(?:\s+(?:again|back|now|instead))*$`,
  'i',
);
/** "rotate the phone", "turn it on its side": a quarter turn from upright; "rotate it back": upright again. */
const ROTATE_ONLY = new RegExp(String.raw`^(?:rotate|turn|tilt|spin)(?:\s+(?:${THE_PHONE}))?(\s+back)?$|^(?:undo|reset|revert)\s+the\s+rotation$`, 'i');

const APPEARANCE = /^(dark|light|night)\s*(?:mode|theme|appearance)$/i;

/** "turn on dark mode": the appearance, when a toggle's target names it. */
export function appearanceToggle(target: string, on: boolean): Intent | undefined {
  const m = target.trim().match(APPEARANCE);
  if (!m) return undefined;
  const dark = m[1].toLowerCase() === 'light' ? !on : on;
  return device('set_appearance', { appearance: dark ? 'dark' : 'light' }, `switch to ${dark ? 'dark' : 'light'} mode`);
}

function orientation(landscape: boolean): Intent {
  const to = landscape ? 'landscape' : 'portrait';
  return device('set_orientation', { orientation: to }, `rotate to ${to}`);
}

/** One device-control clause, or undefined. */
export function parseDeviceControl(clause: string): Intent[] | undefined {
  let m: RegExpMatchArray | null;
  // Lock and unlock ("turn the screen off" is the power button: the lock).
  if (
    new RegExp(String.raw`^(?:lock|sleep)(?:\s+(?:${THE_PHONE}))?(?:\s+(?:now|again))?$`, 'i').test(clause) ||
    new RegExp(String.raw`^(?:put|send)\s+(?:${THE_PHONE})\s+to\s+sleep$`, 'i').test(clause) ||
    /^(?:turn|switch)\s+(?:off\s+(?:the\s+)?(?:screen|display)|(?:the\s+)?(?:screen|display)\s+off)$/i.test(clause)
  ) {
    return [device('set_lock', { locked: true }, 'lock the phone')];
  }
  if (new RegExp(String.raw`^(?:unlock|wake(?:\s+up)?)(?:\s+(?:${THE_PHONE}))?(?:\s+(?:up|again))?$`, 'i').test(clause)) return [device('set_lock', { locked: false }, 'unlock the phone')];
  // Orientation.
  if ((m = clause.match(ORIENT))) return [orientation(m[1] !== undefined)];
  if ((m = clause.match(ROTATE_ONLY))) return [orientation(!m[1] && !/^(?:undo|reset|revert)/i.test(clause))];
  // Appearance.
  if ((m = clause.match(new RegExp(String.raw`^(?:switch|change|set|go|put|make|use|turn)(?:\s+(?:${THE_PHONE}))?(?:\s+back)?(?:\s+(?:to|into|in))?\s+(?:the\s+)?(dark|light|night)\s*(?:mode|theme|appearance)?(?:\s+again)?$`, 'i')))) {
    return [appearanceToggle(`${m[1]} mode`, true) as Intent];
  }
  if ((m = clause.match(/^(dark|light|night)\s+(?:mode|theme)(?:\s+(on|off))?$/i))) return [appearanceToggle(`${m[1]} mode`, m[2]?.toLowerCase() !== 'off') as Intent];
  // Clipboard.
  if ((m = clause.match(/^(?:copy|put|place|save|paste)\s+(.+?)\s+(?:to|on|in|into|onto)\s+(?:the\s+)?(?:clipboard|pasteboard)$/i)) || (m = clause.match(/^set\s+the\s+(?:clipboard|pasteboard)\s+to\s+(.+)$/i))) {
    return [device('set_clipboard', { text: m[1].trim() }, 'copy the text to the clipboard')];
  }
  // Keyboard.
  if (/^(?:hide|dismiss|close|put\s+away|lower|get\s+rid\s+of)\s+(?:the\s+)?(?:on-?screen\s+|soft\s+)?keyboard$/i.test(clause)) return [device('hide_keyboard', {}, 'hide the keyboard')];
  return undefined;
}

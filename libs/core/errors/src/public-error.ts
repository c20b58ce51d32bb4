import { ApexError, toApexError, type FieldIssue } from './apex-error';
import { ERROR_CODES, type ErrorCode } from './codes';
import { echoName, firstItems, MAX_PUBLIC_TEXT_LENGTH, truncateText } from './echo';

/** What a client may see of an error: no stack, no cause, no driver words. */
export interface PublicError {
  code: ErrorCode;
  message: string;
  hint?: string;
  retryable: boolean;
  issues?: FieldIssue[];
}

/**
 * Words that name a driver, a protocol implementation (iOS agents, WebDriver, Android's debug bridge, its dump
 * tool, key-code names, view classes) or a raw system failure. They must never reach a
 * client: a text containing one is replaced by the code's neutral wording. Only literal alternatives, so a
 * match costs linear time whatever the text; stack frames are found by `containsStackFrame`.
 */
export const LEAKY_WORDS =
  /XCUIElement|WebDriverAgent|\bWDA\b|appium|xcuitest|uiautomator|element-6066|webdriver|socket hang up|\badbd?\b|KEYCODE_|dumpsys|\blogcat\b|simctl|xcrun|android\.widget\.|android\.view\./i;

/** System error codes are upper case; matching them case-sensitively keeps words such as "reconnect" intact. */
export const SYSTEM_ERROR_CODES = /\b(?:ECONN[A-Z]+|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND)\b/;

const isLineTerminator = (code: number) => code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isWordCharacter = (code: number) => isDigit(code) || code === 0x5f || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

/** Whether `text` has `at ` (any case) at `i`, after a word boundary. */
function atWordAt(text: string, i: number): boolean {
  return (
    (text.charCodeAt(i) | 0x20) === 0x61 &&
    (text.charCodeAt(i + 1) | 0x20) === 0x74 &&
    text.charCodeAt(i + 2) === 0x20 &&
    (i === 0 || !isWordCharacter(text.charCodeAt(i - 1)))
  );
}

/** Where `:<digits>:<digits>)` that starts at `i` ends, or -1; its cost is the length of those digits. */
function lineColumnEndAt(text: string, i: number): number {
  let j = i + 1;
  for (let part = 0; part < 2; part++) {
    const digits = j;
    while (isDigit(text.charCodeAt(j))) j += 1;
    if (j === digits) return -1;
    if (text.charCodeAt(j) !== (part === 0 ? 0x3a : 0x29)) return -1;
    j += 1;
  }
  return j;
}

/** JavaScript's `\s`, by character code. */
function isWhiteSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * A stack frame in either printed form, in one linear pass (so client text may be checked at any length):
 * - `at <something> (<something>:<line>:<column>)` on one line, what `\bat .+\(.+:\d+:\d+\)` means without its
 *   cubic backtracking: on each line the first `at `, then the first `(` after it, then any `:1:2)` after that;
 * - a line break, white space, then `at `, what `\n\s+at ` means without its quadratic backtracking.
 * Each character is read at most twice.
 */
export function containsStackFrame(text: string): boolean {
  return stackFrameIn(text) !== undefined;
}

/** The first stack frame of `text` as `containsStackFrame` finds it (the text it spans), or undefined. */
export function stackFrameIn(text: string): string | undefined {
  let afterAt = -1;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isLineTerminator(code)) {
      afterAt = open = -1;
      if (code !== 0x0a) continue;
      let next = i + 1;
      while (next < text.length && isWhiteSpace(text.charCodeAt(next))) next += 1;
      if (next > i + 1 && atWordAt(text, next)) return text.slice(i, next + 3);
      // The white space skipped holds no `at `, `(` or `:`; any line break in it leads to the same `next`.
      if (next > i + 1) i = next - 1;
    } else if (afterAt < 0) {
      if (atWordAt(text, i)) afterAt = i + 3;
    } else if (open < 0) {
      if (code === 0x28 && i > afterAt) open = i;
    } else if (code === 0x3a && i > open + 1) {
      const end = lineColumnEndAt(text, i);
      if (end >= 0) return text.slice(afterAt - 3, end);
    }
  }
  return undefined;
}

export function containsLeakyWords(text: string): boolean {
  return LEAKY_WORDS.test(text) || SYSTEM_ERROR_CODES.test(text) || containsStackFrame(text);
}

const NEUTRAL_MESSAGES: Record<ErrorCode, string> = {
  invalid_argument: 'The request has an invalid argument.',
  unauthorized: 'Authentication is required.',
  device_not_found: 'The device was not found.',
  element_not_found: 'The element was not found on the screen.',
  app_not_found: 'The app is not installed on the device.',
  task_not_found: 'The task was not found.',
  recording_not_found: 'The recording was not found.',
  device_busy: 'The device is busy.',
  internal: 'An internal error occurred.',
  unsupported_operation: 'The device does not support this operation.',
  device_error: 'The device reported an error.',
  device_offline: 'The device is not reachable.',
  device_timeout: 'The device did not answer in time.',
  unavailable: 'A service Apex depends on cannot be reached now.',
};

function clean(text: string | undefined, fallback: string): string;
function clean(text: string | undefined): string | undefined;
function clean(text: string | undefined, fallback?: string): string | undefined {
  if (text === undefined) return fallback;
  const short = truncateText(text, MAX_PUBLIC_TEXT_LENGTH);
  return containsLeakyWords(short) ? fallback : short;
}

/** The client-facing form of any thrown value: bounded in size, whatever the client sent. */
export function toPublicError(error: unknown): PublicError {
  const apex: ApexError = toApexError(error);
  const result: PublicError = {
    code: apex.code,
    message: clean(apex.message, NEUTRAL_MESSAGES[apex.code]),
    retryable: apex.retryable ?? ERROR_CODES[apex.code].retryable,
  };
  const hint = clean(apex.hint);
  if (hint) result.hint = hint;
  if (apex.issues?.length) {
    result.issues = firstItems(apex.issues).shown.map((issue) => ({
      path: echoName(issue.path),
      message: clean(issue.message, 'is invalid'),
    }));
  }
  return result;
}

/** One line a model can act on: "device_offline: … Hint: …". */
export function formatPublicError(error: PublicError): string {
  const issues = error.issues?.length
    ? ` (${error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')})`
    : '';
  const hint = error.hint ? ` Hint: ${error.hint}` : '';
  return `${error.code}: ${error.message}${issues}${hint}`;
}

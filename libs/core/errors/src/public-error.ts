import { ApexError, toApexError, type FieldIssue } from './apex-error';
import { ERROR_CODES, type ErrorCode } from './codes';

/** What a client may see of an error: no stack, no cause, no driver words. */
export interface PublicError {
  code: ErrorCode;
  message: string;
  hint?: string;
  retryable: boolean;
  issues?: FieldIssue[];
}

/**
 * Words that name a driver, a protocol implementation or a raw system failure. They must never reach a
 * client: a text containing one is replaced by the code's neutral wording.
 */
export const LEAKY_WORDS = /XCUIElement|WebDriverAgent|\bWDA\b|appium|xcuitest|uiautomator|element-6066|webdriver|socket hang up|\bat .+\(.+:\d+:\d+\)|\n\s+at /i;

/** System error codes are upper case; matching them case-sensitively keeps words such as "reconnect" intact. */
const SYSTEM_ERROR_CODES = /\b(?:ECONN[A-Z]+|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|EAI_AGAIN|ENOTFOUND)\b/;

export function containsLeakyWords(text: string): boolean {
  return LEAKY_WORDS.test(text) || SYSTEM_ERROR_CODES.test(text);
}

const NEUTRAL_MESSAGES: Record<ErrorCode, string> = {
  invalid_argument: 'The request has an invalid argument.',
  unauthorized: 'Authentication is required.',
  device_not_found: 'The device was not found.',
  element_not_found: 'The element was not found on the screen.',
  app_not_found: 'The app is not installed on the device.',
  task_not_found: 'The task was not found.',
  device_busy: 'The device is busy.',
  internal: 'An internal error occurred.',
  unsupported_operation: 'The device does not support this operation.',
  device_error: 'The device reported an error.',
  device_offline: 'The device is not reachable.',
  device_timeout: 'The device did not answer in time.',
};

function clean(text: string | undefined, fallback: string): string;
function clean(text: string | undefined): string | undefined;
function clean(text: string | undefined, fallback?: string): string | undefined {
  if (text === undefined) return fallback;
  return containsLeakyWords(text) ? fallback : text;
}

/** The client-facing form of any thrown value. */
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
    result.issues = apex.issues.map((issue) => ({
      path: issue.path,
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

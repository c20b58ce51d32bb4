import { LEAKY_WORDS, stackFrameIn, SYSTEM_ERROR_CODES } from './public-error';

/**
 * What of `text` no client may see, listed as it appears there: the driver and system words
 * `containsLeakyWords` refuses, and the first stack frame. The leakage tests use it, on the error filter's
 * own list (a test helper: exported from `@apex/errors/testing`, never from a production entry point).
 */
export function leakedWordsIn(text: string): string[] {
  const words = [...text.matchAll(new RegExp(LEAKY_WORDS.source, 'gi')), ...text.matchAll(new RegExp(SYSTEM_ERROR_CODES.source, 'g'))].map((m) => m[0]);
  const frame = stackFrameIn(text);
  if (frame !== undefined) words.push(frame);
  return words;
}

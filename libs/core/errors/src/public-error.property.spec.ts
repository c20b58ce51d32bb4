import fc from 'fast-check';
import {
  ApexError,
  containsLeakyWords,
  containsStackFrame,
  formatPublicError,
  invalidInput,
  MAX_ECHOED_LENGTH,
  MAX_LISTED,
  MAX_PUBLIC_TEXT_LENGTH,
  toPublicError,
} from './index';

/** The body limit of the REST face: the largest text a client can put in one request. */
const BODY_LIMIT = 1024 * 1024;
/** The issue's requirement for producing one public error, whatever the input. */
const BUDGET_MS = 50;

/** The median of three timed runs, so that one garbage collection on a busy machine does not decide. */
function medianMs(run: () => unknown): number {
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    run();
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[1] as number;
}

/** Every client-facing text of an error whose message, hint and issue all carry `text`. */
function publicErrorOf(text: string): string {
  const error = new ApexError('device_error', text, { hint: text, issues: [{ path: text, message: text }] });
  return formatPublicError(toPublicError(error));
}

/** The error a face answers for a body of unknown keys plus one field whose path and message carry `text`. */
function publicInvalidInputOf(keys: readonly string[], text: string): string {
  const error = invalidInput(
    [
      { code: 'unrecognized_keys', keys, path: [], message: 'Unrecognized keys' },
      { path: ['region', text], message: text },
    ],
    'tap arguments',
  );
  return formatPublicError(toPublicError(error));
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Pieces that make regex engines backtrack, or look like stack frames, driver words or odd unicode. */
const piece = fc.oneof(
  fc.constantFrom('at (', 'at x (a:1:', 'at x (a:1:2', ' at ', '\n', '\n ', '\n\t at', '(', ':1', ':1:', 'ECONN', 'WDA'),
  fc.constantFrom('é', '😀', '\u2028', '\u00a0', '\ufeff', '\u0301'),
  loneSurrogate,
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Any length up to the body limit, the limit itself included. */
const length = fc.oneof(fc.integer({ min: 1, max: BODY_LIMIT }), fc.constant(BODY_LIMIT));

/** A short pattern of pieces repeated up to `length` characters. */
const adversarialText = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 6 }), length)
  .map(([pieces, size]) => {
    const unit = pieces.join('') || 'at (';
    return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  });

/** Many unknown keys whose names together fill up to the body limit. */
const unknownKeys = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 200_000 }))
  .map(([pieces, count]) => {
    const name = pieces.join('') || 'k';
    const each = Math.max(1, Math.floor(BODY_LIMIT / count / Math.max(1, name.length)));
    return Array.from({ length: count }, (_, i) => `${name.repeat(each)}${i}`);
  });

describe('producing a public error is linear in the client text', () => {
  it('takes < 50 ms for the cubic input from the issue (8,000 characters of "at (" took 4 s)', () => {
    const bomb = 'at ('.repeat(2_000);
    expect(bomb).toHaveLength(8_000);
    expect(medianMs(() => publicErrorOf(bomb))).toBeLessThan(BUDGET_MS);
    expect(medianMs(() => publicInvalidInputOf([bomb], bomb))).toBeLessThan(BUDGET_MS);
    expect(medianMs(() => containsStackFrame(bomb))).toBeLessThan(BUDGET_MS);
    // The same bomb at the body limit, and the newline form that was quadratic (`\n\s+at `).
    expect(medianMs(() => publicErrorOf('at ('.repeat(BODY_LIMIT / 4)))).toBeLessThan(BUDGET_MS);
    expect(medianMs(() => publicErrorOf('\n'.repeat(BODY_LIMIT)))).toBeLessThan(BUDGET_MS);
  });

  it('takes < 50 ms for any message, hint and issue up to the body limit, and stays bounded', () => {
    fc.assert(
      fc.property(adversarialText, (text) => {
        let answer = '';
        expect(medianMs(() => (answer = publicErrorOf(text)))).toBeLessThan(BUDGET_MS);
        expect(answer.length).toBeLessThan(3 * MAX_PUBLIC_TEXT_LENGTH + 2 * MAX_ECHOED_LENGTH);
      }),
      { numRuns: 60 },
    );
  });

  it('takes < 50 ms for any unknown keys and field path up to the body limit, and names at most 20', () => {
    fc.assert(
      fc.property(unknownKeys, adversarialText, (keys, text) => {
        let answer = '';
        expect(medianMs(() => (answer = publicInvalidInputOf(keys, text)))).toBeLessThan(BUDGET_MS);
        const pub = toPublicError(invalidInput([{ code: 'unrecognized_keys', keys, path: [], message: '' }]));
        expect(pub.issues?.length).toBe(Math.min(keys.length, MAX_LISTED));
        expect(pub.issues?.every((issue) => issue.path.length <= MAX_ECHOED_LENGTH)).toBe(true);
        // A message that names a key with driver or system words (say "ECONN…") is replaced by the neutral wording.
        const neutralized = containsLeakyWords(invalidInput([{ code: 'unrecognized_keys', keys, path: [], message: '' }]).message);
        if (keys.length > MAX_LISTED && !neutralized) expect(pub.message).toContain(`and ${keys.length - MAX_LISTED} more`);
        expect(answer.length).toBeLessThan(4 * MAX_PUBLIC_TEXT_LENGTH);
      }),
      { numRuns: 40 },
    );
  });
});

/** The two patterns the linear scan replaces; safe to run here only because the texts are short. */
const BACKTRACKING_FRAME = /\bat .+\(.+:\d+:\d+\)|\n\s+at /i;

describe('containsStackFrame', () => {
  it.each([
    'oops\n    at Object.<anonymous> (/x/y.ts:1:2)',
    'at run (node:internal/main:12:34)',
    'AT f (g:1:2)',
    'Error: x\n\tat y',
    'x\n\n  at z',
  ])('finds the frame in %j', (text) => {
    expect(containsStackFrame(text)).toBe(true);
  });

  it.each(['Tap at (10, 20) failed.', 'Look at the screen (top) at 10:30', 'that (x:1:2)', 'at (x:1:2)', 'done\nat last'])(
    'sees no frame in %j',
    (text) => {
      expect(containsStackFrame(text)).toBe(false);
    },
  );

  it('agrees with the backtracking patterns it replaces on any short text', () => {
    const alphabet = fc.constantFrom('a', 't', 'A', 'T', ' ', '\t', '(', ')', ':', '1', '2', 'x', '_', '\n', '\r', '\u2028', '\u00a0', 'é');
    const text = fc.oneof(
      fc.string({ unit: alphabet, maxLength: 40 }),
      fc.array(fc.constantFrom('at ', 'xat ', '(', 'f', ':1', ':2)', ')', '\n', ' ', '\r\n'), { maxLength: 14 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(containsStackFrame(t)).toBe(BACKTRACKING_FRAME.test(t));
      }),
      { numRuns: 20_000 },
    );
  });
});

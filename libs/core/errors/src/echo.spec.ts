import {
  echoName,
  formatPublicError,
  invalidArgument,
  invalidInput,
  listNames,
  MAX_ECHOED_LENGTH,
  MAX_LISTED,
  MAX_PUBLIC_TEXT_LENGTH,
  toPublicError,
  truncateText,
} from './index';

describe('the echo rule', () => {
  it('keeps a short name as it is', () => {
    expect(echoName('force')).toBe('force');
    expect(echoName('x'.repeat(MAX_ECHOED_LENGTH))).toBe('x'.repeat(MAX_ECHOED_LENGTH));
  });

  it('cuts a long name to 64 characters ending with an ellipsis', () => {
    const echoed = echoName('k'.repeat(10_000));
    expect(echoed).toHaveLength(MAX_ECHOED_LENGTH);
    expect(echoed).toBe(`${'k'.repeat(MAX_ECHOED_LENGTH - 1)}…`);
  });

  it('never cuts a surrogate pair in two, and replaces lone surrogates', () => {
    const emoji = '😀'.repeat(100);
    const echoed = echoName(emoji);
    expect(echoed.length).toBeLessThanOrEqual(MAX_ECHOED_LENGTH);
    expect(echoed).toBe(`${'😀'.repeat(31)}…`);
    expect(truncateText(`a${'😀'.repeat(3)}`, 3)).toBe('a…');
    expect(echoName('a\ud800b\udc00')).toBe('a\ufffdb\ufffd');
  });

  it('lists at most 20 names and counts the rest', () => {
    const names = Array.from({ length: 25 }, (_, i) => `n${i}`);
    expect(listNames(names)).toBe(`${names.slice(0, MAX_LISTED).join(', ')} and 5 more`);
    expect(listNames(['a', 'b'])).toBe('a, b');
    expect(listNames(['y'.repeat(100)])).toBe(`${'y'.repeat(63)}…`);
  });

  it('bounds an invalid input with a million unknown keys to the first few, each short', () => {
    const keys = Array.from({ length: 1_000_000 }, (_, i) => `${'k'.repeat(100)}${i}`);
    const error = invalidInput([{ code: 'unrecognized_keys', keys, path: [], message: 'Unrecognized keys' }], 'tap arguments');
    expect(error.issues).toHaveLength(MAX_LISTED);
    expect(error.issues?.every((issue) => issue.path.length === MAX_ECHOED_LENGTH)).toBe(true);
    expect(error.message).toMatch(/ and 999980 more$/);
    expect(error.message.length).toBeLessThan(MAX_LISTED * 100);
  });

  it('counts the fields beyond the list over several issues', () => {
    const error = invalidInput([
      ...Array.from({ length: 18 }, (_, i) => ({ path: [`f${i}`], message: 'is wrong' })),
      { code: 'unrecognized_keys', keys: ['a', 'b', 'c', 'd'], path: ['region'], message: 'Unrecognized keys' },
    ]);
    expect(error.issues?.map((i) => i.path).slice(-2)).toEqual(['region.a', 'region.b']);
    expect(error.message).toMatch(/region\.b: is not a known field and 2 more$/);
  });

  it('bounds what toPublicError lets through, however the error was built', () => {
    const issues = Array.from({ length: 500 }, (_, i) => ({ path: `${'p'.repeat(200)}${i}`, message: 'is bad' }));
    const pub = toPublicError(invalidArgument('m'.repeat(50_000), issues, 'h'.repeat(50_000)));
    expect(pub.issues).toHaveLength(MAX_LISTED);
    expect(pub.issues?.every((issue) => issue.path.length <= MAX_ECHOED_LENGTH)).toBe(true);
    expect(pub.message).toHaveLength(MAX_PUBLIC_TEXT_LENGTH);
    expect(pub.hint).toHaveLength(MAX_PUBLIC_TEXT_LENGTH);
    expect(formatPublicError(pub).length).toBeLessThan(3 * MAX_PUBLIC_TEXT_LENGTH);
  });
});

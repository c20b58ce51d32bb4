import {
  ApexError,
  ERROR_CODE_LIST,
  formatPublicError,
  httpStatusOf,
  invalidInput,
  isErrorCode,
  toPublicError,
} from './index';
import { leakedWordsIn } from './testing';

describe('error codes', () => {
  it('has the thirteen semantic codes, each with an HTTP status', () => {
    expect(ERROR_CODE_LIST.sort()).toEqual(
      [
        'invalid_argument',
        'device_not_found',
        'device_offline',
        'device_busy',
        'device_timeout',
        'device_error',
        'element_not_found',
        'app_not_found',
        'unsupported_operation',
        'task_not_found',
        'recording_not_found',
        'unauthorized',
        'internal',
        'unavailable',
      ].sort(),
    );
    expect(httpStatusOf('invalid_argument')).toBe(400);
    expect(httpStatusOf('unauthorized')).toBe(401);
    expect(httpStatusOf('device_not_found')).toBe(404);
    expect(httpStatusOf('device_busy')).toBe(409);
    expect(httpStatusOf('device_offline')).toBe(503);
    expect(httpStatusOf('device_timeout')).toBe(504);
    expect(httpStatusOf('unavailable')).toBe(503);
    expect(httpStatusOf('internal')).toBe(500);
  });

  it('recognises codes', () => {
    expect(isErrorCode('device_busy')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});

describe('ApexError', () => {
  it('carries code, hint, retryable default and cause', () => {
    const cause = new Error('connect ECONNREFUSED 127.0.0.1:8100');
    const error = new ApexError('device_offline', 'iphone-a is not reachable.', { hint: 'Check the cable.', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('device_offline');
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(cause);
    expect(new ApexError('invalid_argument', 'x').retryable).toBe(false);
    expect(new ApexError('invalid_argument', 'x', { retryable: true }).retryable).toBe(true);
  });
});

describe('toPublicError', () => {
  it('keeps code, message, hint and retryable but never the cause or stack', () => {
    const error = new ApexError('device_offline', 'iphone-a is not reachable.', {
      hint: 'Check that the phone is on.',
      cause: new Error('connect ECONNREFUSED 127.0.0.1:8100'),
    });
    const pub = toPublicError(error);
    expect(pub).toEqual({
      code: 'device_offline',
      message: 'iphone-a is not reachable.',
      hint: 'Check that the phone is on.',
      retryable: true,
    });
    expect(JSON.stringify(pub)).not.toMatch(/ECONNREFUSED|stack|\n\s+at /);
  });

  it('turns unknown throws into a neutral internal error', () => {
    const pub = toPublicError(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(pub).toEqual({ code: 'internal', message: 'An internal error occurred.', retryable: false });
    expect(toPublicError('a string').code).toBe('internal');
  });

  it.each([
    'XCUIElementTypeButton not found',
    'WebDriverAgent returned 500',
    'WDA session died',
    'Appium proxy failed',
    'connect ECONNREFUSED 127.0.0.1:8100',
    'oops\n    at Object.<anonymous> (/x/y.ts:1:2)',
  ])('replaces a message with driver words: %s', (message) => {
    const pub = toPublicError(new ApexError('device_error', message, { hint: message }));
    expect(pub.message).toBe('The device reported an error.');
    expect(pub.hint).toBeUndefined();
  });

  it.each([
    ['uiautomator2 crashed', ['uiautomator']],
    ['the WebDriver session is gone', ['WebDriver']],
    ['socket hang up', ['socket hang up']],
    ['connect ECONNREFUSED 127.0.0.1:8100', ['ECONNREFUSED']],
    ['Error: x\n    at run (/a/b.ts:3:4)', ['\n    at ']],
    ['failed at run (/a/b.ts:3:4) here', ['at run (/a/b.ts:3:4)']],
    ['Appium and WDA', ['Appium', 'WDA']],
    ['adb: device unauthorized', ['adb']],
    ['input keyevent KEYCODE_BACK', ['KEYCODE_']],
    ['no android.widget.Switch here', ['android.widget.']],
  ])('one list: what the filter refuses the leakage check names (%s)', (text, words) => {
    expect(leakedWordsIn(text)).toEqual(words);
    expect(toPublicError(new ApexError('device_error', text)).message).toBe('The device reported an error.');
  });

  it('finds nothing to name in a clean text', () => {
    expect(leakedWordsIn('iphone-a is offline; Apex will reconnect.')).toEqual([]);
    // An app id is a package name: fine to show.
    expect(leakedWordsIn('com.android.chrome is not installed on pixel (a padbook too).')).toEqual([]);
  });

  it('keeps ordinary words that merely contain a system error code', () => {
    const pub = toPublicError(new ApexError('device_offline', 'iphone-a is offline; Apex will reconnect.'));
    expect(pub.message).toBe('iphone-a is offline; Apex will reconnect.');
  });

  it('lists the bad fields of an invalid input', () => {
    const error = invalidInput(
      [
        { path: ['x'], message: 'must be a finite number' },
        { path: ['devices', 0, 'url'], message: 'must be a URL' },
      ],
      'tap arguments',
    );
    const pub = toPublicError(error);
    expect(pub.code).toBe('invalid_argument');
    expect(pub.issues).toEqual([
      { path: 'x', message: 'must be a finite number' },
      { path: 'devices.0.url', message: 'must be a URL' },
    ]);
    expect(pub.message).toBe('Invalid tap arguments: x: must be a finite number; devices.0.url: must be a URL');
  });

  it('names each unknown key as a field of its own', () => {
    const pub = toPublicError(
      invalidInput([{ code: 'unrecognized_keys', keys: ['force', 'speed'], path: [], message: 'Unrecognized keys' }], 'tap arguments'),
    );
    expect(pub.issues).toEqual([
      { path: 'force', message: 'is not a known field' },
      { path: 'speed', message: 'is not a known field' },
    ]);
  });

  it('formats one actionable line', () => {
    expect(
      formatPublicError({ code: 'device_not_found', message: 'No device "b".', hint: 'Use one of: a.', retryable: false }),
    ).toBe('device_not_found: No device "b". Hint: Use one of: a.');
  });
});

import { ApexError, LEAKY_WORDS, toPublicError } from '@apex/errors';
import { WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from './errors';
import { translateWebDriverFailure, type FailureWording } from './translate';

const WORDING: FailureWording = {
  unreachableMessage: (deviceId) => `Device ${deviceId} is not reachable.`,
  unreachableHint: 'Check the phone.',
  noAnswerHint: 'Retry later.',
  unreadableReplyHint: 'Restart it.',
};

describe('translateWebDriverFailure', () => {
  const cases: [string, unknown, string][] = [
    ['refused', new WebDriverTransportError('refused', 'connect ECONNREFUSED 127.0.0.1:8100'), 'device_offline'],
    ['unreachable', new WebDriverTransportError('unreachable', 'connect EHOSTUNREACH'), 'device_offline'],
    ['connect timeout', new WebDriverTransportError('connect_timeout', 'no connection'), 'device_offline'],
    ['reset', new WebDriverTransportError('reset', 'socket hang up'), 'device_offline'],
    ['response timeout', new WebDriverTransportError('response_timeout', 'slow'), 'device_timeout'],
    ['aborted', new WebDriverTransportError('aborted', 'The operation was aborted'), 'device_timeout'],
    ['no such element', new WebDriverProtocolError(404, 'no such element', 'x', 'tb', 'r'), 'element_not_found'],
    ['stale element reference', new WebDriverProtocolError(404, 'stale element reference', 'x', 'tb', 'r'), 'element_not_found'],
    ['invalid argument', new WebDriverProtocolError(400, 'invalid argument', 'x', undefined, 'r'), 'invalid_argument'],
    ['timeout', new WebDriverProtocolError(408, 'timeout', 'x', undefined, 'r'), 'device_timeout'],
    ['script timeout', new WebDriverProtocolError(500, 'script timeout', 'x', undefined, 'r'), 'device_timeout'],
    ['unknown command', new WebDriverProtocolError(404, 'unknown command', 'Unhandled endpoint', undefined, 'r'), 'unsupported_operation'],
    ['invalid session id', new WebDriverProtocolError(404, 'invalid session id', 'Session does not exist', undefined, 'r'), 'device_error'],
    ['unknown error', new WebDriverProtocolError(500, 'unknown error', 'XCUIElementTypeAny crashed', 'tb', 'r'), 'device_error'],
    ['malformed', new WebDriverMalformedReply(200, 'GET /x', '<html>'), 'device_error'],
    ['anything', new TypeError('x is undefined'), 'device_error'],
  ];

  it.each(cases)('maps %s to %s with a neutral message naming the device', (_name, error, code) => {
    const apex = translateWebDriverFailure(error, 'iphone-a', 'tap', WORDING);
    expect(apex).toBeInstanceOf(ApexError);
    expect(apex.code).toBe(code);
    expect(apex.message).toMatch(/iphone-a/);
    expect(apex.message).not.toMatch(LEAKY_WORDS);
    expect(apex.hint ?? '').not.toMatch(LEAKY_WORDS);
    expect(apex.cause).toBe(error);
    expect(toPublicError(apex).message).toBe(apex.message);
  });

  it("uses the driver's wording for the failures that differ between drivers", () => {
    const offline = translateWebDriverFailure(new WebDriverTransportError('refused', 'x'), 'iphone-a', 'tap', WORDING);
    expect([offline.message, offline.hint]).toEqual(['Device iphone-a is not reachable.', 'Check the phone.']);
    expect(translateWebDriverFailure(new WebDriverTransportError('response_timeout', 'x'), 'iphone-a', 'tap', WORDING).hint).toBe(
      'Retry later.',
    );
    expect(translateWebDriverFailure(new WebDriverMalformedReply(200, 'r', ''), 'iphone-a', 'tap', WORDING).hint).toBe('Restart it.');
  });

  it("tries the driver's own protocol mapping first and falls back to the W3C name", () => {
    const wording: FailureWording = {
      ...WORDING,
      protocol: (error, deviceId) =>
        error.error === 'invalid argument' ? new ApexError('app_not_found', `Device ${deviceId} has no such app.`, { cause: error }) : undefined,
    };
    const invalid = new WebDriverProtocolError(400, 'invalid argument', 'x', undefined, 'r');
    expect(translateWebDriverFailure(invalid, 'iphone-a', 'launch', wording).code).toBe('app_not_found');
    const missing = new WebDriverProtocolError(404, 'no such element', 'x', undefined, 'r');
    expect(translateWebDriverFailure(missing, 'iphone-a', 'tap', wording).code).toBe('element_not_found');
  });

  it('passes an ApexError through unchanged', () => {
    const original = new ApexError('app_not_found', 'Device iphone-a has no app com.x.');
    expect(translateWebDriverFailure(original, 'iphone-a', 'launch', WORDING)).toBe(original);
  });
});

import { ApexError, LEAKY_WORDS, toPublicError } from '@apex/errors';
import { WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from '@apex/webdriver-http';
import { translateError } from './errors';

describe('translateError', () => {
  const cases: [string, unknown, string][] = [
    ['refused', new WebDriverTransportError('refused', 'connect ECONNREFUSED 127.0.0.1:8100'), 'device_offline'],
    ['unreachable', new WebDriverTransportError('unreachable', 'connect EHOSTUNREACH'), 'device_offline'],
    ['connect timeout', new WebDriverTransportError('connect_timeout', 'no connection'), 'device_offline'],
    ['reset', new WebDriverTransportError('reset', 'socket hang up'), 'device_offline'],
    ['response timeout', new WebDriverTransportError('response_timeout', 'slow'), 'device_timeout'],
    ['no such element', new WebDriverProtocolError(404, 'no such element', 'x', 'tb', 'r'), 'element_not_found'],
    ['invalid argument', new WebDriverProtocolError(400, 'invalid argument', 'x', undefined, 'r'), 'invalid_argument'],
    ['timeout', new WebDriverProtocolError(408, 'timeout', 'x', undefined, 'r'), 'device_timeout'],
    ['unknown command', new WebDriverProtocolError(404, 'unknown command', 'Unhandled endpoint', undefined, 'r'), 'unsupported_operation'],
    ['unknown error', new WebDriverProtocolError(500, 'unknown error', 'XCUIElementTypeAny crashed', 'tb', 'r'), 'device_error'],
    ['malformed', new WebDriverMalformedReply(200, 'GET /x', '<html>'), 'device_error'],
    ['anything', new TypeError('x is undefined'), 'device_error'],
  ];

  it.each(cases)('maps %s to %s with a neutral message naming the device', (_name, error, code) => {
    const apex = translateError(error, 'iphone-a', 'tap');
    expect(apex).toBeInstanceOf(ApexError);
    expect(apex.code).toBe(code);
    expect(apex.message).toMatch(/iphone-a/);
    expect(apex.message).not.toMatch(LEAKY_WORDS);
    expect(apex.hint ?? '').not.toMatch(LEAKY_WORDS);
    expect(apex.cause).toBe(error);
    // The public form keeps the message as written (nothing leaky to replace).
    expect(toPublicError(apex).message).toBe(apex.message);
  });
});

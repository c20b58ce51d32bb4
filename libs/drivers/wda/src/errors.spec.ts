import { LEAKY_WORDS, toPublicError } from '@apex/errors';
import { WebDriverMalformedReply, WebDriverProtocolError, WebDriverTransportError } from '@apex/webdriver-http';
import { translateError } from './errors';

// The mapping by failure and error name is tested in @apex/webdriver-http; here only WDA's own wording.
describe('translateError', () => {
  it.each([
    ['refused', new WebDriverTransportError('refused', 'connect ECONNREFUSED 127.0.0.1:8100'), 'device_offline', /not reachable at its configured address/],
    ['response timeout', new WebDriverTransportError('response_timeout', 'slow'), 'device_timeout', /did not answer in time/],
    ['malformed', new WebDriverMalformedReply(200, 'GET /x', '<html>'), 'device_error', /could not be read/],
    ['unknown error', new WebDriverProtocolError(500, 'unknown error', 'XCUIElementTypeAny crashed', 'tb', 'r'), 'device_error', /reported an error/],
  ] as const)('words %s (%s) for the phone, in neutral words', (_name, error, code, message) => {
    const apex = translateError(error, 'iphone-a', 'tap');
    expect(apex.code).toBe(code);
    expect(apex.message).toMatch(message);
    expect(apex.message).toMatch(/iphone-a/);
    expect(`${apex.message} ${apex.hint ?? ''}`).not.toMatch(LEAKY_WORDS);
    expect(apex.cause).toBe(error);
    expect(toPublicError(apex).message).toBe(apex.message);
  });

  it('points at the phone, not at a server in front of it', () => {
    const offline = translateError(new WebDriverTransportError('unreachable', 'connect EHOSTUNREACH'), 'iphone-a', 'tap');
    expect(offline.hint).toMatch(/Check the phone, its connection and its automation server/);
    const unreadable = translateError(new WebDriverMalformedReply(200, 'GET /x', '<html>'), 'iphone-a', 'tap');
    expect(unreadable.hint).toMatch(/restart the automation server on the phone/);
  });
});

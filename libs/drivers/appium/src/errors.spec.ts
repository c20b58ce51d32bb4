import { toPublicError } from '@apex/errors';
import { parseEnvelope, WebDriverTransportError } from '@apex/webdriver-http';
import { translateError } from './errors';

/** Error envelopes as an Appium 3.8 server with the XCUITest driver 12.13 answered them (stack traces cut). */
const REPLIES = {
  agentRefused: [
    500,
    '{"value":{"error":"unknown error","message":"Could not proxy command to the remote server. Original error: connect ECONNREFUSED 127.0.0.1:18101","stacktrace":"UnknownError: Could not proxy command…"}}',
  ],
  agentHungUp: [
    500,
    '{"value":{"error":"unknown error","message":"Could not proxy command to the remote server. Original error: socket hang up","stacktrace":"UnknownError: …"}}',
  ],
  sessionStartRefused: [
    500,
    '{"value":{"error":"session not created","message":"Unable to start WebDriverAgent session. Original error: Could not proxy command to the remote server. Original error: connect ECONNREFUSED 127.0.0.1:18199","stacktrace":"…"}}',
  ],
  /** Selenium Grid 4.48's hub when no matching slot came free within its session request timeout. */
  gridQueueTimedOut: [
    500,
    '{"value":{"error":"session not created","message":"Could not start a new session. New session request timed out \\nHost info: host: \'vm\', ip: \'127.0.0.1\'\\nBuild info: version: \'4.48.0\'","stacktrace":"…"}}',
  ],
  notLocated: [
    404,
    '{"value":{"error":"no such element","message":"An element could not be located on the page using the given search parameters.","stacktrace":"NoSuchElementError: …"}}',
  ],
  unknownApp: [
    400,
    '{"value":{"error":"invalid argument","message":"The operation couldn’t be completed. (FBSOpenApplicationServiceErrorDomain error 1.)","stacktrace":"…"}}',
  ],
  unknownMethod: [404, '{"value":{"error":"unknown method","message":"Method is not implemented","stacktrace":"NotImplementedError: …"}}'],
  agentFailed: [
    500,
    '{"value":{"error":"unknown error","message":"The request to /wda/tap has failed","stacktrace":"UnknownError: The request to /wda/tap has failed"}}',
  ],
  staleSession: [404, '{"value":{"error":"invalid session id","message":"Session does not exist","stacktrace":"ProxyRequestError: …"}}'],
} as const;

function translated(name: keyof typeof REPLIES) {
  const [status, body] = REPLIES[name];
  try {
    parseEnvelope(status, 'POST /session/x/execute/sync', body);
  } catch (error) {
    return translateError(error, 'iphone-a', 'tap');
  }
  throw new Error('expected an error envelope');
}

describe('translateError', () => {
  it.each([
    ['agentRefused', 'device_offline'],
    ['agentHungUp', 'device_offline'],
    ['sessionStartRefused', 'device_offline'],
    ['gridQueueTimedOut', 'device_busy'],
    ['notLocated', 'element_not_found'],
    ['unknownApp', 'invalid_argument'],
    ['unknownMethod', 'unsupported_operation'],
    ['agentFailed', 'device_error'],
    ['staleSession', 'device_error'],
  ] as const)('%s → %s, in neutral words with the original as cause', (name, code) => {
    const error = translated(name);
    expect(error.code).toBe(code);
    expect(error.message).toContain('iphone-a');
    expect(toPublicError(error).message).toBe(error.message);
    expect(String(error.cause)).toContain(REPLIES[name][1].match(/"message":"([^"]{0,20})/)?.[1] ?? '');
  });

  it('tells an unreachable server from an unreachable phone', () => {
    const server = translateError(new WebDriverTransportError('refused', 'connect ECONNREFUSED'), 'iphone-a', 'tap');
    const phone = translated('agentRefused');
    expect([server.code, phone.code]).toEqual(['device_offline', 'device_offline']);
    expect(server.message).toMatch(/automation server configured for it does not answer/);
    expect(phone.message).toMatch(/cannot reach the phone/);
    expect(server.hint).not.toBe(phone.hint);
  });

  it('timeouts are device_timeout; a reply that is not the envelope is device_error', () => {
    expect(translateError(new WebDriverTransportError('response_timeout', 'slow'), 'iphone-a', 'tap').code).toBe('device_timeout');
    let error: unknown;
    try {
      parseEnvelope(200, 'GET /session/x/source', '<html>proxy error</html>');
    } catch (caught) {
      error = caught;
    }
    expect(translateError(error, 'iphone-a', 'read the screen').code).toBe('device_error');
  });
});

import { ApexError, invalidInput } from '@apex/errors';
import { HttpProblem, problemFrom, problemHeaders, PROBLEM_TYPE_BASE } from './problem';

describe('problemFrom', () => {
  it('maps an ApexError through the status table with code, hint and type', () => {
    const problem = problemFrom(new ApexError('device_offline', 'iphone-a is not reachable.', { hint: 'Check Wi-Fi.' }), '/devices/iphone-a');
    expect(problem).toEqual({
      type: `${PROBLEM_TYPE_BASE}device_offline`,
      title: 'Device offline',
      status: 503,
      detail: 'iphone-a is not reachable.',
      code: 'device_offline',
      hint: 'Check Wi-Fi.',
      retryable: true,
      instance: '/devices/iphone-a',
    });
  });

  it('lists each bad field of a validation error', () => {
    const problem = problemFrom(invalidInput([{ path: ['x'], message: 'too small' }, { path: ['y'], message: 'required' }], 'tap arguments'));
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual([
      { path: 'x', message: 'too small' },
      { path: 'y', message: 'required' },
    ]);
  });

  it('never shows a cause, a stack or driver words', () => {
    const leaky = new ApexError('device_error', 'WebDriverAgent said: XCUIElementTypeButton missing', {
      cause: new Error('connect ECONNREFUSED 127.0.0.1:8100'),
    });
    const text = JSON.stringify(problemFrom(leaky)) + JSON.stringify(problemFrom(new TypeError('x is undefined')));
    expect(text).not.toMatch(/WebDriverAgent|XCUIElement|ECONNREFUSED|\n\s+at |stack/);
    expect(problemFrom(new TypeError('boom'))).toMatchObject({ status: 500, code: 'internal' });
  });

  it('bounds an HTTP problem that repeats what the client sent', () => {
    const path = `/${'x'.repeat(16_000)}`;
    const problem = problemFrom(new HttpProblem('route_not_found', `No route GET ${path}.`));
    expect(problem.detail).toHaveLength(4_000);
    expect(problem.detail).toMatch(/^No route GET \/x+…$/);
  });

  it('keeps HTTP problems with their own status, and the headers they need', () => {
    const error = new HttpProblem('method_not_allowed', 'DELETE is not allowed.', { Allow: 'GET' });
    expect(problemFrom(error)).toMatchObject({ status: 405, code: 'method_not_allowed', title: 'Method not allowed' });
    expect(problemHeaders(error)).toEqual({ Allow: 'GET' });
    expect(problemHeaders(new ApexError('unauthorized', 'no'))).toEqual({ 'WWW-Authenticate': 'Bearer realm="apex"' });
  });
});

import { ApexError } from '@apex/errors';
import { HttpProblem } from './problem';
import { Router } from './router';

const router = new Router([
  { method: 'GET', path: '/devices' },
  { method: 'GET', path: '/devices/{id}' },
  { method: 'POST', path: '/devices/{id}/tap' },
]);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('Router', () => {
  it('matches literal and templated paths and decodes parameters', () => {
    expect(router.match('GET', '/devices').route.path).toBe('/devices');
    const match = router.match('POST', '/devices/iphone%20a%2F1/tap');
    expect(match.route.path).toBe('/devices/{id}/tap');
    expect(match.params).toEqual({ id: 'iphone a/1' });
  });

  it('answers an unknown path with route_not_found', () => {
    const error = thrown(() => router.match('GET', '/nope')) as HttpProblem;
    expect(error).toBeInstanceOf(HttpProblem);
    expect(error.code).toBe('route_not_found');
    expect((thrown(() => router.match('GET', '/devices/a/tap/extra')) as HttpProblem).code).toBe('route_not_found');
  });

  it('answers a known path with the wrong method with method_not_allowed and Allow', () => {
    const error = thrown(() => router.match('DELETE', '/devices/a')) as HttpProblem;
    expect(error.code).toBe('method_not_allowed');
    expect(error.headers).toEqual({ Allow: 'GET' });
    expect((thrown(() => router.match('GET', '/devices/a/tap')) as HttpProblem).headers.Allow).toBe('POST');
  });

  it.each([
    ['/devices/%E0%A4%A/tap', 'is not valid URL encoding'],
    ['/devices//tap', 'must not be empty'],
    [`/devices/${'x'.repeat(129)}/tap`, 'must be at most 128 characters'],
    ['/devices/a%00b/tap', 'must not contain control characters'],
  ])('refuses the bad device id in %s', (path, message) => {
    const error = thrown(() => router.match('POST', path)) as ApexError;
    expect(error).toBeInstanceOf(ApexError);
    expect(error.code).toBe('invalid_argument');
    expect(error.issues).toEqual([{ path: 'id', message }]);
  });
});

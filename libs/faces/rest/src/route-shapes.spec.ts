import { routeShapesOf } from './route-shapes';

const TEMPLATES = new Map([
  ['/devices', 'list'],
  ['/devices/{id}', 'status'],
  ['/devices/{id}/tap', 'tap'],
  ['/devices/{id}/open-url', 'open'],
  ['/devices/{id}/apps/install', 'install'],
  ['/tasks', 'tasks'],
  ['/task/{id}/steps/{step}/screenshot', 'step'],
  ['/devices/{id}/a.b', 'dotted'],
]);

/** The value and parameters of the one shape that matches `pathname`, or undefined when none does. */
function route(pathname: string) {
  const hits = routeShapesOf(TEMPLATES).flatMap((shape) => {
    const match = shape.pattern.exec(pathname);
    return match ? [{ value: shape.valueOf(pathname), params: { ...match.groups } }] : [];
  });
  expect(hits.length).toBeLessThanOrEqual(1);
  return hits[0];
}

describe('routeShapesOf', () => {
  it('makes one shape of the templates that differ only in a literal last segment, in order of appearance', () => {
    expect(routeShapesOf(TEMPLATES).map((shape) => shape.pattern.source)).toEqual([
      '^\\/(?:devices|tasks)$',
      '^\\/devices\\/(?<id>[^/]*)$',
      '^\\/devices\\/(?<id>[^/]*)\\/(?:tap|open-url|a\\.b)$',
      '^\\/devices\\/(?<id>[^/]*)\\/apps\\/(?:install)$',
      '^\\/task\\/(?<id>[^/]*)\\/steps\\/(?<step>[^/]*)\\/(?:screenshot)$',
    ]);
  });

  it('routes each template, with its parameters, and only its own paths', () => {
    expect(route('/devices')).toEqual({ value: 'list', params: {} });
    expect(route('/tasks')).toEqual({ value: 'tasks', params: {} });
    expect(route('/devices/iphone-1')).toEqual({ value: 'status', params: { id: 'iphone-1' } });
    expect(route('/devices/iphone-1/open-url')).toEqual({ value: 'open', params: { id: 'iphone-1' } });
    expect(route('/devices/x/apps/install')).toEqual({ value: 'install', params: { id: 'x' } });
    expect(route('/task/t1/steps/3/screenshot')).toEqual({ value: 'step', params: { id: 't1', step: '3' } });
    expect(route('/devices/x/a.b')).toEqual({ value: 'dotted', params: { id: 'x' } });
    // An empty id still reaches its schema.
    expect(route('/devices//tap')).toEqual({ value: 'tap', params: { id: '' } });
    for (const other of ['/devices/x/Tap', '/devices/x/tap/', '/devices/x/taps', '/devices/x/axb', '/devices/x/y/tap', '/Devices', '/task', '/devices/x/apps/tap']) {
      expect({ other, hit: route(other) }).toEqual({ other, hit: undefined });
    }
  });
});

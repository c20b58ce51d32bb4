import { ApexError } from '@apex/errors';
import { requestTargetOf } from './request-target';

/** What URL parsing makes of a target: the reading requestTargetOf must give, taken as is or not. */
function urlReading(target: string) {
  const { pathname, search } = new URL(target, 'http://apex.invalid');
  return { pathname, search };
}

describe('requestTargetOf', () => {
  it('reads every target as URL parsing does', () => {
    const targets = [
      '/', '/devices', '/devices/iphone-1/tap', '/devices/a%20b/ui-tree?depth=3&visibleOnly=true', '/openapi.json',
      '/ui/assets/index-3f2a.js', '/devices/x/apps/install', "/devices/it's/tap", '/a/./b', '/a/../b', '/a/%2e%2E/b',
      '/a/.%2e', '/a/%2E/', '/a/..?x=1', '/a/b/.', '/.hidden', '/a/..b', '/a/b..', '/a?', '/a?&', '/a??b', "/a?q='1'",
      '/a?x=1#frag', '/a#frag', '/a b', '/a\\b', '/Général', '/a?q=é', '/a?q=a b', '//evil.example/x', '/a//b',
      '/a%zz', '/a%2', '/a<b>', '/a"b', '/a{b}', '/a`b', '/a|b', '/a^b', '/a[b]', '/a\tb', 'http://other.example/p?q',
      '/devices/%E0%A4%A/tap', '/a?%zz', '/a?x=%', '/tasks?state=done&state=failed',
    ];
    for (const target of targets) {
      expect({ target, reading: requestTargetOf(target) }).toEqual({ target, reading: urlReading(target) });
    }
  });

  it('takes a plain target as it is, without parsing a URL; parses any other', () => {
    const plain = ['/devices/iphone-1/tap', '/devices/a%20b/ui-tree?depth=3', '/ui/assets/index-3f2a.js', '/tasks?state=done&state=failed'];
    const expected = plain.map(urlReading);
    const Parsed = globalThis.URL;
    let parsed = 0;
    globalThis.URL = class extends Parsed {
      constructor(...args: ConstructorParameters<typeof URL>) {
        super(...args);
        parsed += 1;
      }
    };
    try {
      expect(plain.map(requestTargetOf)).toEqual(expected);
      expect(parsed).toBe(0);
      expect(requestTargetOf('/a/../b')).toEqual({ pathname: '/b', search: '' });
      expect(parsed).toBe(1);
    } finally {
      globalThis.URL = Parsed;
    }
  });

  it('refuses a target that is no URL with invalid_argument', () => {
    expect(() => requestTargetOf('http://[bad')).toThrow(ApexError);
    expect(() => requestTargetOf('http://[bad')).toThrow(/not a valid URL/);
  });
});

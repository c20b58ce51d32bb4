import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList } from 'node:net';
import { ApexError } from '@apex/errors';
import {
  applyCors,
  applyServerTimeouts,
  assertSafeBind,
  assertSafeOpenBind,
  checkBearerToken,
  isAllowedHost,
  isAllowedOrigin,
  isLoopbackHost,
  refusalOf,
  SERVER_TIMEOUTS,
} from './index';

const req = (headers: Record<string, string>, method = 'GET') => ({ headers, method }) as unknown as IncomingMessage;

/** A response that records what was set on it. */
function recorder() {
  const headers: Record<string, unknown> = {};
  let status: number | undefined;
  const res = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = value),
    writeHead: (code: number, extra: Record<string, unknown>) => {
      status = code;
      for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    },
    end: () => undefined,
  } as unknown as ServerResponse;
  return { res, headers, status: () => status };
}

const CORS = { methods: ['GET', 'POST'], allowHeaders: ['Content-Type'], exposeHeaders: ['X-Image-Width'] };

describe('loopback', () => {
  it('knows loopback names and addresses, in URL and Host forms', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST', 'localhost.', 'app.localhost', '::ffff:127.0.0.1', '[::ffff:7f00:1]']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', '128.0.0.1', 'example.com', 'localhost.example.com', '127.0.0.1.nip.io', '::ffff:10.0.0.1', '']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });

  it('reads IPv6 in every spelling as node\'s BlockList does', () => {
    const loopback = new BlockList();
    loopback.addSubnet('127.0.0.0', 8, 'ipv4');
    loopback.addAddress('::1', 'ipv6');
    const spellings = [
      '0:0:0:0:0:0:0:1', '::0:1', '0::1', '::FFFF:7F00:0001', '0::ffff:127.9.9.9', '::ffff:7fff:ffff', '[0:0::1]',
      '::2', '1::1', '::1:0', '::127.0.0.1', '::ffff:0:127.0.0.1', '::ffff:8000:1', '::fffe:127.0.0.1', 'fe80::1%eth0', '::',
    ];
    for (const host of spellings) {
      const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
      expect({ host, loopback: isLoopbackHost(host) }).toEqual({ host, loopback: loopback.check(bare, 'ipv6') });
    }
  });
});

describe('bind rules', () => {
  it('refuses a non-loopback bind without a token', () => {
    expect(() => assertSafeBind('127.0.0.1', undefined)).not.toThrow();
    expect(() => assertSafeBind('localhost', undefined)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', 'tok')).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', undefined)).toThrow(ApexError);
    expect(() => assertSafeBind('::', '')).toThrow(/APEX_TOKEN/);
  });

  it('refuses a non-loopback bind of a server without auth unless remote use is allowed explicitly', () => {
    expect(() => assertSafeOpenBind('127.0.0.1', false, 'the virtual iPhone')).not.toThrow();
    expect(() => assertSafeOpenBind('0.0.0.0', true, 'the virtual iPhone')).not.toThrow();
    let error: unknown;
    try {
      assertSafeOpenBind('0.0.0.0', undefined, 'the virtual iPhone');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApexError);
    expect(error).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/0\.0\.0\.0.*virtual iPhone/) });
    expect((error as ApexError).hint).toMatch(/--allow-remote/);
  });
});

describe('Origin and Host checks', () => {
  it('allows no origin, loopback origins and listed ones; refuses the rest', () => {
    expect(isAllowedOrigin(req({}))).toBe(true);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3001', 'http://[::1]:8080', 'https://app.localhost']) {
      expect(isAllowedOrigin(req({ origin }))).toBe(true);
    }
    for (const origin of ['https://evil.example', 'null', 'file://', 'chrome-extension://abc', 'http://127.0.0.1.evil.example', 'not a url']) {
      expect(isAllowedOrigin(req({ origin }))).toBe(false);
    }
    expect(isAllowedOrigin(req({ origin: 'https://ok.example' }), ['https://ok.example'])).toBe(true);
  });

  it('allows loopback or listed Host values only, and refuses forms that smuggle another name', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'localhost', '[::1]:8100', '127.0.0.1']) expect(isAllowedHost(req({ host }))).toBe(true);
    for (const host of ['evil.example:3000', 'evil.example', 'evil@127.0.0.1', '127.0.0.1/x', '127.0.0.1:3000@evil.example', '0.0.0.0:3000']) {
      expect(isAllowedHost(req({ host }))).toBe(false);
    }
    expect(isAllowedHost(req({}))).toBe(false);
    expect(isAllowedHost(req({ host: 'Phone.Lan:8100' }), ['phone.lan:8100'])).toBe(true);
  });

  it('says why a request is refused, origin first, and skips the Host check when told', () => {
    expect(refusalOf(req({ host: '127.0.0.1:1' }))).toBeUndefined();
    expect(refusalOf(req({ host: 'evil.example', origin: 'https://evil.example' }))).toMatchObject({ reason: 'origin' });
    expect(refusalOf(req({ host: 'evil.example' }))).toMatchObject({ reason: 'host', message: expect.stringContaining('evil.example') });
    expect(refusalOf(req({ host: 'evil.example' }), { anyHost: true })).toBeUndefined();
    expect(refusalOf(req({ host: 'evil.example', origin: 'https://evil.example' }), { anyHost: true })).toMatchObject({ reason: 'origin' });
    const long = refusalOf(req({ host: `${'a'.repeat(10_000)}.example` }));
    expect(long?.message.length).toBeLessThan(200);
  });
});

describe('CORS', () => {
  it('echoes a loopback origin (never *) and exposes the listed headers', () => {
    const { res, headers } = recorder();
    expect(applyCors(req({ origin: 'http://localhost:5173' }), res, CORS)).toBe(false);
    expect(headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(headers['access-control-expose-headers']).toBe('X-Image-Width');
    expect(headers['vary']).toBe('Origin');
  });

  it('gives a foreign origin no CORS headers, and a listed one the same as loopback', () => {
    const foreign = recorder();
    expect(applyCors(req({ origin: 'https://evil.example' }), foreign.res, CORS)).toBe(false);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const listed = recorder();
    applyCors(req({ origin: 'https://dash.example' }), listed.res, CORS, ['https://dash.example']);
    expect(listed.headers['access-control-allow-origin']).toBe('https://dash.example');
    const none = recorder();
    applyCors(req({}), none.res, CORS);
    expect(none.headers).toEqual({});
  });

  it('answers a preflight from a loopback origin, and no preflight from a foreign one', () => {
    const local = recorder();
    expect(applyCors(req({ origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST' }, 'OPTIONS'), local.res, CORS)).toBe(true);
    expect(local.status()).toBe(204);
    expect(local.headers).toMatchObject({ 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'Content-Type' });
    const foreign = recorder();
    expect(applyCors(req({ origin: 'https://evil.example', 'access-control-request-method': 'POST' }, 'OPTIONS'), foreign.res, CORS)).toBe(false);
    expect(foreign.status()).toBeUndefined();
  });
});

describe('server timeouts', () => {
  it('replaces Node’s long defaults', () => {
    const server = createServer();
    applyServerTimeouts(server);
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
    expect(server.requestTimeout).toBeLessThan(createServer().requestTimeout);
    applyServerTimeouts(server, { keepAliveTimeoutMs: 30_000 });
    expect(server.keepAliveTimeout).toBe(30_000);
  });
});

describe('bearer token', () => {
  it('accepts only the exact token, and everything when none is set', () => {
    expect(checkBearerToken(req({}), undefined)).toBe(true);
    expect(checkBearerToken(req({ authorization: 'Bearer s3cret' }), 's3cret')).toBe(true);
    expect(checkBearerToken(req({ authorization: 'bearer s3cret' }), 's3cret')).toBe(true);
    expect(checkBearerToken(req({ authorization: 'Bearer s3cret2' }), 's3cret')).toBe(false);
    expect(checkBearerToken(req({ authorization: 'Bearer s3' }), 's3cret')).toBe(false);
    expect(checkBearerToken(req({ authorization: 'Basic s3cret' }), 's3cret')).toBe(false);
    expect(checkBearerToken(req({}), 's3cret')).toBe(false);
  });
});

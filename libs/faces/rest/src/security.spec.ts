import type { IncomingMessage } from 'node:http';
import { ApexError } from '@apex/errors';
import { assertSafeBind, checkBearerToken as hasBearerToken, isAllowedOrigin as isOriginAllowed, isHostAllowed, isLoopbackHost } from './security';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('security helpers', () => {
  it('accepts only the exact bearer token', () => {
    expect(hasBearerToken(req({ authorization: 'Bearer s3cret' }), 's3cret')).toBe(true);
    expect(hasBearerToken(req({ authorization: 'bearer s3cret' }), 's3cret')).toBe(true);
    expect(hasBearerToken(req({ authorization: 'Bearer s3cret2' }), 's3cret')).toBe(false);
    expect(hasBearerToken(req({ authorization: 'Basic s3cret' }), 's3cret')).toBe(false);
    expect(hasBearerToken(req({}), 's3cret')).toBe(false);
  });

  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses a non-loopback bind without a token', () => {
    expect(() => assertSafeBind('127.0.0.1', undefined)).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', 'tok')).not.toThrow();
    expect(() => assertSafeBind('0.0.0.0', undefined)).toThrow(ApexError);
    expect(() => assertSafeBind('0.0.0.0', '')).toThrow(/APEX_TOKEN/);
  });

  it('allows loopback or listed origins and hosts only', () => {
    expect(isOriginAllowed(req({}))).toBe(true);
    expect(isOriginAllowed(req({ origin: 'http://localhost:5173' }))).toBe(true);
    expect(isOriginAllowed(req({ origin: 'https://evil.example' }))).toBe(false);
    expect(isOriginAllowed(req({ origin: 'https://ok.example' }), ['https://ok.example'])).toBe(true);
    expect(isOriginAllowed(req({ origin: 'null' }))).toBe(false);
    expect(isHostAllowed(req({ host: '127.0.0.1:3000' }))).toBe(true);
    expect(isHostAllowed(req({ host: 'localhost:3000' }))).toBe(true);
    expect(isHostAllowed(req({ host: 'evil.example:3000' }))).toBe(false);
    expect(isHostAllowed(req({}))).toBe(false);
  });
});

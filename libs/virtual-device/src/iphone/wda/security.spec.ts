import { request, type IncomingHttpHeaders } from 'node:http';
import { emulatorOptionsFromArgs, startVirtualIPhone, type VirtualIPhone } from '../../index';
import { WdaHttp } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Over node:http, because fetch cannot forge `Host`. */
function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SETTINGS = JSON.stringify({ bundleId: 'com.apple.Preferences' });

/** The virtual iPhone does not answer any web page (DNS rebinding, drive-by requests). */
describe('virtual iPhone: serve security', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
  });

  afterAll(async () => {
    await iphone.close();
  });

  beforeEach(async () => {
    await wda.createSession();
    await wda.post('/wda/homescreen');
  });

  const activeApp = () => iphone.phone.activeApp().bundleId;

  it('refuses a foreign Origin with 403, without running the command', async () => {
    const before = activeApp();
    const reply = await call(iphone.url, 'POST', wda.s('/wda/apps/launch'), { origin: 'https://evil.example', 'content-type': 'application/json' }, SETTINGS);
    expect(reply.status).toBe(403);
    expect(reply.json).toMatchObject({ value: { error: 'unknown error', message: expect.stringMatching(/^Forbidden: .*origin/) }, sessionId: null });
    expect(activeApp()).toBe(before);
    expect((await call(iphone.url, 'GET', '/status', { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('refuses a Host that is not a loopback name (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${iphone.port}`, `evil.example@127.0.0.1:${iphone.port}`]) {
      const reply = await call(iphone.url, 'GET', '/status', { host });
      expect(reply.status).toBe(403);
      expect(reply.json.value.message).toMatch(/host/);
    }
    expect((await call(iphone.url, 'GET', '/status', { host: `localhost:${iphone.port}` })).status).toBe(200);
  });

  it('gives CORS headers to loopback pages only, never *', async () => {
    const plain = await call(iphone.url, 'GET', '/status');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    const local = await call(iphone.url, 'GET', '/status', { origin: 'http://127.0.0.1:3000' });
    expect(local.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    const preflight = await call(iphone.url, 'OPTIONS', wda.s('/wda/tap'), { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const foreign = await call(iphone.url, 'OPTIONS', wda.s('/wda/tap'), { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a body that is not JSON with a WDA 400 invalid argument, without running the command', async () => {
    const path = wda.s('/wda/apps/launch');
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}] as Record<string, string>[]) {
      const reply = await call(iphone.url, 'POST', path, headers, SETTINGS);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ value: { error: 'invalid argument', message: expect.stringMatching(/Content-Type: application\/json/), traceback: expect.any(String) } });
      expect(activeApp()).toBe('com.apple.springboard');
    }
    const garbage = await call(iphone.url, 'POST', path, { 'content-type': 'application/json' }, '{"bundleId": ');
    expect(garbage.status).toBe(400);
    expect(garbage.json.value.error).toBe('invalid argument');
  });

  it('accepts JSON as WDA clients send it, and bodiless commands', async () => {
    // Apex's WebDriver client, and Appium's (axios).
    for (const type of ['application/json;charset=UTF-8', 'application/json; charset=utf-8', 'application/json']) {
      await wda.post('/wda/homescreen');
      const reply = await call(iphone.url, 'POST', wda.s('/wda/apps/launch'), { 'content-type': type }, SETTINGS);
      expect(reply.status).toBe(200);
      expect(activeApp()).toBe('com.apple.Preferences');
    }
    expect((await call(iphone.url, 'POST', '/wda/homescreen')).status).toBe(200);
    expect(activeApp()).toBe('com.apple.springboard');
  });

  it('has no fault admin path unless started with faults on', async () => {
    const state = await call(iphone.url, 'GET', '/__apex/faults');
    expect(state.status).toBe(404);
    expect(state.json.value.error).toBe('unknown command');
    const set = await call(iphone.url, 'POST', '/__apex/faults', { 'content-type': 'application/json' }, '{"failNext": 5}');
    expect(set.status).toBe(404);
    expect(iphone.faults.state.failNext).toBe(0);
    expect((await wda.get('/status')).status).toBe(200);

    const withFaults = await startVirtualIPhone({ faults: true });
    try {
      const reply = await call(withFaults.url, 'POST', '/__apex/faults', { 'content-type': 'application/json' }, '{"failNext": 1}');
      expect(reply.status).toBe(200);
      expect(withFaults.faults.state.failNext).toBe(1);
      const plain = await call(withFaults.url, 'POST', '/__apex/faults', { 'content-type': 'text/plain' }, '{"failNext": 3}');
      expect(plain.status).toBe(400);
      expect(withFaults.faults.state.failNext).toBe(1);
    } finally {
      await withFaults.close();
    }
  });
});

describe('virtual iPhone: bind rules', () => {
  it('refuses a non-loopback host unless remote use is allowed', async () => {
    await expect(startVirtualIPhone({ host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/Refusing to listen on 0\.0\.0\.0/),
    });
    expect(() => emulatorOptionsFromArgs({ host: '0.0.0.0' }, 8100)).toThrow(/no authentication/);
    expect(() => emulatorOptionsFromArgs({ host: '192.168.1.20' }, 8100)).toThrow(/Refusing/);
    expect(emulatorOptionsFromArgs({ host: '0.0.0.0', allowRemote: true, faults: true }, 8100)).toEqual({
      port: 8100,
      host: '0.0.0.0',
      allowRemote: true,
      faults: true,
    });
    expect(emulatorOptionsFromArgs({ host: 'localhost' }, 8100)).toEqual({ port: 8100, host: 'localhost' });
  });
});

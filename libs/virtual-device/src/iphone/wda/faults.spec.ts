import * as http from 'node:http';
import { eventually } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { INJECTED_FAILURE_MESSAGE } from './server';
import { WdaHttp } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(60_000);

/** Every fault mode, programmatically and over the admin path, and several phones at once. */
describe('fault injection', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ faults: true });
    // A fresh connection per request: these tests close the server's connections on purpose.
    wda = new WdaHttp(iphone.url, { keepAlive: false });
  });

  afterEach(async () => {
    iphone.faults.reset();
    await iphone.faults.comeBack();
  });

  afterAll(async () => {
    await iphone.close();
  });

  /** The error a request rejected with. */
  async function failureOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      return String(error);
    }
    throw new Error('expected the request to fail');
  }

  /** A GET on a fresh connection (no pooled keep-alive socket): the status, or the connect error code. */
  function probe(url: string): Promise<number | string> {
    return new Promise((resolve) => {
      const request = http.get(`${url}/status`, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    });
  }

  it('is off by default', async () => {
    expect(iphone.faults.state).toEqual({ latencyMs: 0, failNext: 0, dropNext: 0, malformNext: 0, offline: false, restarts: 0 });
    expect((await wda.get('/status')).status).toBe(200);
  });

  it('adds latency before WDA responses but never before admin responses', async () => {
    iphone.faults.setLatency(60_000);
    expect(iphone.faults.state.latencyMs).toBe(60_000);
    let settled = false;
    const delayed = wda.get('/status').then((reply) => {
      settled = true;
      return reply;
    });
    await eventually(async () => (await wda.get('/__apex/faults')).json.faults.delayedRequests === 1, { timeoutMs: 30_000, what: 'the request to be held' });
    expect(settled).toBe(false);
    iphone.faults.reset();
    const reply = await delayed;
    expect(reply.status).toBe(200);
    expect(reply.json.value.ready).toBe(true);
  });

  it('fails the next N requests with a 500 unknown error envelope, without running them', async () => {
    await wda.createSession();
    iphone.faults.failNext(2);
    for (let i = 0; i < 2; i++) {
      const reply = await wda.post('/wda/lock');
      expect(reply.status).toBe(500);
      expect(reply.json.value).toMatchObject({ error: 'unknown error', message: INJECTED_FAILURE_MESSAGE });
      expect(reply.json.sessionId).toBe(wda.sessionId);
    }
    expect(iphone.faults.state.failNext).toBe(0);
    expect((await wda.get('/wda/locked')).json.value).toBe(false);
  });

  it('drops the next N requests: the socket closes without a response', async () => {
    iphone.faults.dropNext(1);
    expect(await failureOf(fetch(`${iphone.url}/status`))).toMatch(/fetch failed/);
    expect(iphone.faults.state.dropNext).toBe(0);
    expect((await wda.get('/status')).status).toBe(200);
  });

  it('malforms the next N responses: 200 with a body that is not JSON', async () => {
    iphone.faults.malformNext(1);
    const response = await fetch(`${iphone.url}/status`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(JSON.parse(await (await fetch(`${iphone.url}/status`)).text()).value.ready).toBe(true);
  });

  it('simulates a WDA restart: the old session gets 404 invalid session id', async () => {
    const old = await wda.createSession();
    iphone.faults.restart();
    const reply = await wda.get(`/session/${old}/window/size`);
    expect(reply.status).toBe(404);
    expect(reply.json.value.error).toBe('invalid session id');
    expect((await wda.get('/status')).json.sessionId).toBeNull();
    expect(iphone.faults.state.restarts).toBe(1);
    expect(await wda.createSession()).not.toBe(old);
  });

  it('goes offline (connection refused) and comes back on the same port', async () => {
    const port = iphone.port;
    await iphone.faults.goOffline();
    expect(iphone.faults.state.offline).toBe(true);
    expect(await probe(iphone.url)).toBe('ECONNREFUSED');
    await iphone.faults.comeBack();
    expect(iphone.faults.state.offline).toBe(false);
    expect(iphone.port).toBe(port);
    expect((await wda.get('/status')).status).toBe(200);

    // reset() clears offline too
    await iphone.faults.goOffline();
    iphone.faults.reset();
    await iphone.faults.comeBack();
    expect(await probe(iphone.url)).toBe(200);
  });

  describe('admin path', () => {
    it('reads, sets and resets faults over HTTP, outside the WDA namespace', async () => {
      const state = await wda.get('/__apex/faults');
      expect(state.status).toBe(200);
      expect(state.json.faults).toMatchObject({ latencyMs: 0, failNext: 0, dropNext: 0, malformNext: 0, offline: false });

      const set = await wda.post('/__apex/faults', { failNext: 1, latencyMs: 0, malformNext: 0 });
      expect(set.status).toBe(200);
      expect(set.json.faults.failNext).toBe(1);
      expect(iphone.faults.state.failNext).toBe(1);
      expect((await wda.get('/status')).status).toBe(500);
      expect((await wda.get('/status')).status).toBe(200);

      await wda.post('/__apex/faults', { dropNext: 3, failNext: 3 });
      // admin requests are never affected by faults
      expect((await wda.get('/__apex/faults')).json.faults).toMatchObject({ dropNext: 3, failNext: 3 });
      const reset = await wda.post('/__apex/faults/reset');
      expect(reset.json.faults).toMatchObject({ dropNext: 0, failNext: 0 });
      expect((await wda.get('/status')).status).toBe(200);
    });

    it('restarts and malforms over HTTP', async () => {
      const old = await wda.createSession();
      await wda.post('/__apex/faults', { restart: true, malformNext: 1 });
      const malformed = await fetch(`${iphone.url}/status`);
      const body = await malformed.text();
      expect(() => JSON.parse(body)).toThrow(SyntaxError);
      expect((await wda.get(`/session/${old}`)).json.value.error).toBe('invalid session id');
    });

    it('validates admin bodies', async () => {
      for (const body of [{ failNext: -1 }, { latencyMs: 'slow' }, { restart: false }, { frobnicate: 1 }, '{not json']) {
        const reply = await wda.post('/__apex/faults', body);
        expect(reply.status).toBe(400);
        expect(reply.json.error).toBe('invalid_argument');
      }
      expect((await wda.get('/__apex/nothing')).status).toBe(404);
      expect(iphone.faults.state).toMatchObject({ failNext: 0, latencyMs: 0 });
    });

    it('goes offline for a while and comes back by itself', async () => {
      const reply = await wda.post('/__apex/faults', { offlineForMs: 6000 });
      expect(reply.status).toBe(200);
      expect(reply.json.faults.offline).toBe(true);
      expect(await probe(iphone.url)).toBe('ECONNREFUSED');
      await eventually(async () => (await probe(iphone.url)) === 200, { timeoutMs: 30_000, what: 'the phone to come back' });
      expect(iphone.faults.state.offline).toBe(false);
    });
  });
});

describe('several virtual iPhones at once', () => {
  const farm: VirtualIPhone[] = [];

  afterAll(async () => {
    await Promise.all(farm.map((phone) => phone.close()));
  });

  it('runs each on its own port with its own session, state and faults', async () => {
    farm.push(await startVirtualIPhone(), await startVirtualIPhone({ profile: 'iphone-se' }), await startVirtualIPhone({ appearance: 'dark', deviceName: 'Third' }));
    expect(new Set(farm.map((p) => p.port)).size).toBe(3);
    const clients = farm.map((p) => new WdaHttp(p.url));
    const ids = await Promise.all(clients.map((c) => c.createSession()));
    expect(new Set(ids).size).toBe(3);
    for (const [i, client] of clients.entries()) expect((await client.get('/status')).json.sessionId).toBe(ids[i]);

    await clients[0]?.post(clients[0].s('/wda/apps/launch'), { bundleId: 'com.apple.Preferences' });
    expect((await clients[0]?.get('/wda/activeAppInfo'))?.json.value.bundleId).toBe('com.apple.Preferences');
    expect((await clients[1]?.get('/wda/activeAppInfo'))?.json.value.bundleId).toBe('com.apple.springboard');
    expect((await clients[2]?.get('/wda/device/info'))?.json.value).toMatchObject({ name: 'Third', userInterfaceStyle: 'dark' });

    farm[1]?.faults.failNext(1);
    expect((await clients[0]?.get('/status'))?.status).toBe(200);
    expect((await clients[1]?.get('/status'))?.status).toBe(500);
  });
});

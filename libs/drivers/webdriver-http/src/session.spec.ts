import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebDriverHttpClient } from './client';
import { WebDriverTransportError } from './errors';
import { WebDriverSession, type WebDriverSessionOptions } from './session';

/**
 * A stand-in server speaking just enough of the protocol (one session at a time, the error envelope) to
 * check the session rules over real HTTP.
 */
class StandIn {
  readonly log: string[] = [];
  activeSession: string | null = null;
  sessionsCreated = 0;
  dropNextTap = false;
  /** Holds the reply to `POST /session` until released. */
  holdCreation?: Promise<void>;
  /** Answers every session command with `invalid session id`, even on a fresh session. */
  alwaysInvalid = false;
  private creationWaiters: (() => void)[] = [];

  /** Resolves when the server has received its `n`th `POST /session`. */
  creationReceived(n: number): Promise<void> {
    if (this.sessionsCreated >= n) return Promise.resolve();
    return new Promise((resolve) => this.creationWaiters.push(() => this.sessionsCreated >= n && resolve()));
  }
  private server = http.createServer((req, res) => this.handle(req, res));
  private sockets = new Set<Socket>();
  url = '';

  async start(): Promise<void> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      this.log.push(`${req.method} ${req.url} ${body}`);
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json;charset=UTF-8' });
        res.end(JSON.stringify({ value, sessionId: this.activeSession }));
      };
      if (req.method === 'POST' && req.url === '/session') {
        this.sessionsCreated += 1;
        for (const wake of this.creationWaiters) wake();
        const id = `S${this.sessionsCreated}`;
        void (this.holdCreation ?? Promise.resolve()).then(() => {
          this.activeSession = id;
          send(200, { sessionId: id, capabilities: { platformVersion: '17.4' } });
        });
        return;
      }
      const match = /^\/session\/([^/]+)(\/.*)$/.exec(req.url ?? '');
      if (!match || match[1] !== this.activeSession || this.alwaysInvalid) {
        send(404, { error: 'invalid session id', message: 'Session does not exist', traceback: '' });
        return;
      }
      if (match[2] === '/wda/tap' && this.dropNextTap) {
        this.dropNextTap = false;
        req.socket.destroy();
        return;
      }
      send(200, null);
    });
  }
}

const NEUTRAL = { alwaysMatch: {}, firstMatch: [{}] };

describe('WebDriverSession over real HTTP', () => {
  const live = new AbortController().signal;
  let standIn: StandIn;
  let client: WebDriverHttpClient;
  let session: WebDriverSession;
  let renewals: number;
  const make = (options: Partial<WebDriverSessionOptions> = {}) =>
    new WebDriverSession(client, { capabilities: NEUTRAL, startTimeoutMs: 5_000, onRenewed: () => (renewals += 1), ...options });

  beforeEach(async () => {
    standIn = new StandIn();
    await standIn.start();
    client = new WebDriverHttpClient({ baseUrl: standIn.url, connectTimeoutMs: 1_000 });
    renewals = 0;
    session = make();
  });
  afterEach(async () => {
    client.close();
    await standIn.stop();
  });

  it('creates the session lazily with neutral capabilities, once, and reuses it', async () => {
    expect(standIn.log).toEqual([]);
    await Promise.all([
      session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live }),
      session.send({ method: 'GET', path: '/wda/batteryInfo', idempotent: true, signal: live }),
    ]);
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 3, y: 4 }, signal: live });
    expect(standIn.sessionsCreated).toBe(1);
    expect(standIn.log[0]).toBe('POST /session {"capabilities":{"alwaysMatch":{},"firstMatch":[{}]}}');
    expect(session.currentId).toBe('S1');
    expect(session.capabilities).toEqual({ platformVersion: '17.4' });
    expect(renewals).toBe(0);
  });

  it('deletes a session whose capabilities fail the check, never sends the command on it, and fails the caller', async () => {
    const wrongPhone = new Error('another phone');
    const checked = make({ verify: (caps) => {
      if (caps.platformVersion !== '99') throw wrongPhone;
    } });
    await expect(checked.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live })).rejects.toBe(wrongPhone);
    expect(standIn.log).toEqual(['POST /session {"capabilities":{"alwaysMatch":{},"firstMatch":[{}]}}', 'DELETE /session/S1 ']);
    expect(checked.currentId).toBeUndefined();
  });

  it('lets a caller that gives up stop waiting while the creation goes on for the next caller', async () => {
    let release!: () => void;
    standIn.holdCreation = new Promise<void>((resolve) => (release = resolve));
    const impatient = new AbortController();
    const first = session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 1 }, signal: impatient.signal });
    await standIn.creationReceived(1);
    impatient.abort();
    await expect(first).rejects.toMatchObject({ failure: 'aborted' });
    const second = session.send({ method: 'POST', path: '/wda/tap', body: { x: 2, y: 2 }, signal: live });
    release();
    await second;
    expect(standIn.sessionsCreated).toBe(1);
    expect(standIn.log.filter((l) => l.includes('/wda/tap'))).toEqual(['POST /session/S1/wda/tap {"x":2,"y":2}']);
  });

  it('re-creates a session the device no longer knows, and sends the command again once', async () => {
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live });
    standIn.activeSession = null; // the device restarted
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 5, y: 6 }, signal: live });
    expect(standIn.log.slice(-3)).toEqual([
      'POST /session/S1/wda/tap {"x":5,"y":6}',
      'POST /session {"capabilities":{"alwaysMatch":{},"firstMatch":[{}]}}',
      'POST /session/S2/wda/tap {"x":5,"y":6}',
    ]);
    expect(session.currentId).toBe('S2');
    expect(renewals).toBe(1);
  });

  it('re-creates only once: a second invalid-session answer is the caller\'s error', async () => {
    standIn.alwaysInvalid = true;
    const error = await session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live }).catch((e: unknown) => e);
    expect(error).toMatchObject({ error: 'invalid session id' });
    expect(standIn.sessionsCreated).toBe(2);
    expect(standIn.log.filter((l) => l.includes('/wda/tap'))).toHaveLength(2);
  });

  it('deletes the lost session first when asked to', async () => {
    session = make({ deleteLostSession: true });
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live });
    standIn.activeSession = null;
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 5, y: 6 }, signal: live });
    expect(standIn.log.slice(-4)).toEqual([
      'POST /session/S1/wda/tap {"x":5,"y":6}',
      'DELETE /session/S1 ',
      'POST /session {"capabilities":{"alwaysMatch":{},"firstMatch":[{}]}}',
      'POST /session/S2/wda/tap {"x":5,"y":6}',
    ]);
  });

  it('sends one request at a time when asked to', async () => {
    session = make({ oneAtATime: true });
    await session.send({ method: 'GET', path: '/a', idempotent: true, signal: live });
    let release!: () => void;
    standIn.holdCreation = new Promise<void>((resolve) => (release = resolve));
    standIn.activeSession = null; // the first of the next two renews the session, and holds the second back
    const both = Promise.all([
      session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 1 }, signal: live }),
      session.send({ method: 'POST', path: '/wda/tap', body: { x: 2, y: 2 }, signal: live }),
    ]);
    await standIn.creationReceived(2);
    expect(standIn.log.filter((l) => l.includes('{"x":2,"y":2}'))).toEqual([]);
    release();
    await both;
    expect(standIn.log.filter((l) => l.includes('/wda/tap'))).toEqual([
      'POST /session/S1/wda/tap {"x":1,"y":1}',
      'POST /session/S2/wda/tap {"x":1,"y":1}',
      'POST /session/S2/wda/tap {"x":2,"y":2}',
    ]);
  });

  it('never re-sends a tap whose connection dropped: it may have reached the device', async () => {
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live });
    standIn.dropNextTap = true;
    const error = await session.send({ method: 'POST', path: '/wda/tap', body: { x: 7, y: 8 }, signal: live }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebDriverTransportError);
    expect(standIn.log.filter((l) => l.endsWith('{"x":7,"y":8}'))).toHaveLength(1);
  });

  it('ends the session on close', async () => {
    await session.send({ method: 'POST', path: '/wda/tap', body: { x: 1, y: 2 }, signal: live });
    await session.end(live);
    expect(standIn.log.at(-1)).toBe('DELETE /session/S1 ');
    expect(session.currentId).toBeUndefined();
  });
});

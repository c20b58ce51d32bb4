import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebDriverHttpClient, WebDriverTransportError } from '@apex/webdriver-http';
import { WdaSession } from './wda-session';

/**
 * A stand-in server speaking just enough of the protocol (one session at a time, the error envelope) to
 * check the session rules over real HTTP.
 */
class StandIn {
  readonly log: string[] = [];
  activeSession: string | null = null;
  sessionsCreated = 0;
  dropNextTap = false;
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
        this.activeSession = `S${this.sessionsCreated}`;
        send(200, { sessionId: this.activeSession, capabilities: {} });
        return;
      }
      const match = /^\/session\/([^/]+)(\/.*)$/.exec(req.url ?? '');
      if (!match || match[1] !== this.activeSession) {
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

describe('WdaSession over real HTTP', () => {
  const live = new AbortController().signal;
  let standIn: StandIn;
  let client: WebDriverHttpClient;
  let session: WdaSession;

  beforeEach(async () => {
    standIn = new StandIn();
    await standIn.start();
    client = new WebDriverHttpClient({ baseUrl: standIn.url, connectTimeoutMs: 1_000 });
    session = new WdaSession(client);
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

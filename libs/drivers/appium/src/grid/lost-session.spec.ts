import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isApexError } from '@apex/errors';
import { createAppiumDriver } from '../appium-driver';
import { iosCapabilities } from '../testing/capabilities';

/**
 * A recording stand-in for a Selenium Grid 4 hub with one phone slot, answering as Grid 4.48 does (seen with
 * the real jar): the hub keeps a session on the slot until it is deleted through the hub, even after the
 * automation server behind the node restarted and forgot it; a session request while the slot is held waits
 * in the queue and fails "New session request timed out"; a delete the node cannot forward fails with a
 * connection error and frees nothing.
 */
class RecordingHub {
  readonly log: string[] = [];
  /** The session holding the phone's slot. */
  slot: string | null = null;
  /** Sessions the automation server behind the node knows. */
  readonly known = new Set<string>();
  /** Deletes the node cannot forward yet (it has not seen its server come back). */
  failDeletes = 0;
  private created = 0;
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The automation server behind the node restarted: it knows no session; the hub still holds the slot. */
  serverRestarted(): void {
    this.known.clear();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    req.on('end', () => {
      const send = (status: number, value: unknown) => {
        this.log.push(`${req.method} ${req.url} → ${status}`);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ value }));
      };
      const invalid = () => send(404, { error: 'invalid session id', message: 'A session is either terminated or not started' });
      const id = /^\/session\/([^/]+)/.exec(req.url ?? '')?.[1];
      if (req.method === 'POST' && req.url === '/session') {
        if (this.slot !== null) return send(500, { error: 'session not created', message: 'Could not start a new session. New session request timed out' });
        const created = `S${++this.created}`;
        this.slot = created;
        this.known.add(created);
        return send(200, { sessionId: created, capabilities: { 'appium:udid': 'lab-a', platformName: 'iOS' } });
      }
      if (req.method === 'DELETE' && id !== undefined) {
        if (this.failDeletes > 0) {
          this.failDeletes -= 1;
          return send(500, { error: 'unknown error', message: `Connection error (DELETE http://127.0.0.1:1/session/${id})` });
        }
        // The hub frees the slot whatever the server behind it answers.
        if (this.slot === id) this.slot = null;
        return this.known.delete(id) ? send(200, null) : invalid();
      }
      if (id !== undefined && !this.known.has(id)) return invalid();
      return send(200, null);
    });
  }
}

describe('a session lost behind a device lab hub', () => {
  let hub: RecordingHub;
  beforeEach(async () => {
    hub = new RecordingHub();
    await hub.start();
  });
  afterEach(() => hub.close());

  it('is ended through the hub before a new one is asked for, again on the next call while the delete does not get through', async () => {
    const driver = createAppiumDriver({ deviceId: 'lab-a', serverUrl: hub.url, capabilities: iosCapabilities('http://127.0.0.1:1', 'lab-a'), expectedUdid: 'lab-a' });
    const home = () => driver.pressButton('home', AbortSignal.timeout(10_000));
    try {
      await home();
      expect(driver.sessionId).toBe('S1');
      hub.serverRestarted();
      hub.failDeletes = 2;
      // The node cannot forward the delete yet: the slot stays held, so the new session request is refused.
      const busy = await home().then(() => undefined, (error: unknown) => error);
      expect(isApexError(busy) && busy.code).toBe('device_busy');
      // The lost session is still this driver's: a listing of the slot holding it is not another client.
      expect([driver.sessionId, driver.ownsSession('S1'), driver.ownsSession('S9')]).toEqual([undefined, true, false]);
      // Next call: the delete gets through (the hub frees the slot), then the new session.
      await home();
      expect(driver.sessionId).toBe('S2');
      expect(hub.log).toEqual([
        'POST /session → 200',
        'POST /session/S1/execute/sync → 200',
        'POST /session/S1/execute/sync → 404',
        'DELETE /session/S1 → 500',
        'DELETE /session/S1 → 500',
        'POST /session → 500',
        'DELETE /session/S1 → 404',
        'POST /session → 200',
        'POST /session/S2/execute/sync → 200',
      ]);
      expect(driver.ownsSession('S1')).toBe(true);
    } finally {
      await driver.close(AbortSignal.timeout(5_000));
    }
  });
});

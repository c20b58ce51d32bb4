import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The smallest WebDriverAgent a driver can use for screenshots: `/status`, `/wda/screen`, `POST /session` and
 * `GET /screenshot` answering a fixed PNG (base64 prepared once), anything else "unknown command". It stands for
 * a small screen whose capture costs almost nothing, so what Apex adds on top shows.
 */
export interface WdaStandIn {
  readonly url: string;
  /** The PNG the next screenshots return. */
  show(png: Buffer): void;
  close(): Promise<void>;
}

export async function startWdaStandIn(screen: { width: number; height: number; scale: number }, png: Buffer): Promise<WdaStandIn> {
  let body = reply(Buffer.from(png).toString('base64'));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const send = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      };
      if (req.method === 'GET' && path === '/screenshot') return send(200, body);
      if (req.method === 'GET' && path === '/status') return send(200, reply({ ready: true, os: { name: 'iOS', version: '17.5' } }));
      if (req.method === 'GET' && path === '/wda/screen') {
        return send(200, reply({ screenSize: { width: screen.width, height: screen.height }, scale: screen.scale }));
      }
      if (req.method === 'POST' && path === '/session') return send(200, reply({ sessionId: 'stand-in', capabilities: {} }));
      send(404, reply({ error: 'unknown command', message: `Unhandled endpoint: ${path}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    show(next) {
      body = reply(next.toString('base64'));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(value: unknown): string {
  return JSON.stringify({ value, sessionId: null });
}

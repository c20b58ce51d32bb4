import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP pass-through on loopback that counts the requests it forwards: what reaches a phone. */
export interface CountingProxy {
  url: string;
  /** Requests forwarded so far. */
  count(): number;
  /** The last requests forwarded ("GET /path"), oldest first (at most 1,000 kept). */
  recent(): string[];
  close(): Promise<void>;
}

/** Forwards every request to `target` (a virtual iPhone's WDA URL) unchanged, counting it. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let requests = 0;
  const recent: string[] = [];
  const server = http.createServer((req, res) => {
    requests += 1;
    recent.push(`${req.method} ${req.url}`);
    if (recent.length > 1_000) recent.shift();
    const forward = http.request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: { ...req.headers, host: to.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => requests,
    recent: () => [...recent],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

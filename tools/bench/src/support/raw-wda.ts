import * as http from 'node:http';

/**
 * The floor: bare keep-alive HTTP calls to the phone's WDA face, the way any client would send them, with no
 * validation or parsing beyond reading the body.
 */
export interface RawWda {
  get(path: string): Promise<string>;
  post(path: string, body: unknown): Promise<string>;
  close(): void;
}

export function rawWda(url: string): RawWda {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(url);
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<string>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: http.OutgoingHttpHeaders = payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {};
      const req = http.request({ host: base.hostname, port: base.port, path, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`));
          else resolve(text);
        });
        res.on('error', reject);
      });
      req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  return { get: (path) => send('GET', path), post: (path, body) => send('POST', path, body), close: () => agent.destroy() };
}

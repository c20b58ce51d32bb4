import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawWda, type RawWda } from './raw-wda';

describe('rawWda', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;
  let client: RawWda;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/hang') return;
        if (req.url === '/text') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
          return;
        }
        const echo = { method: req.method, path: req.url, type: req.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString('utf8') };
        res.writeHead(200, { 'content-type': 'application/json', server: 'Test/1.0' }).end(JSON.stringify({ value: echo }));
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    client = rawWda(url, { timeoutMs: 5_000 });
  });
  afterEach(() => client.close());
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends GET, POST and DELETE, and answers status, headers, text and parsed JSON', async () => {
    const got = await client.get('/status?x=1');
    expect(got.status).toBe(200);
    expect(got.headers.server).toBe('Test/1.0');
    expect(got.json.value).toEqual({ method: 'GET', path: '/status?x=1', type: null, body: '' });
    expect(JSON.parse(got.text)).toEqual(got.json);

    expect((await client.post('/session', { capabilities: {} })).json.value).toEqual({
      method: 'POST',
      path: '/session',
      type: 'application/json',
      body: '{"capabilities":{}}',
    });
    expect((await client.post('/wda/lock')).json.value.body).toBe('{}');
    expect((await client.delete('/session/1')).json.value).toMatchObject({ method: 'DELETE', path: '/session/1', body: '' });
    expect((await client.request('PATCH', '/x', 'raw {not json')).json.value).toMatchObject({ method: 'PATCH', body: 'raw {not json' });
  });

  it('keeps one connection alive across requests', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) await client.get('/status');
    expect(connections - before).toBe(1);
  });

  it('opens a connection per request when keepAlive is off', async () => {
    const fresh = rawWda(url, { keepAlive: false });
    try {
      const before = connections;
      for (let i = 0; i < 3; i++) expect((await fresh.get('/status')).status).toBe(200);
      expect(connections - before).toBe(3);
    } finally {
      fresh.close();
    }
  });

  it('runs concurrent requests on one connection when maxSockets is 1', async () => {
    const single = rawWda(url, { maxSockets: 1 });
    try {
      const before = connections;
      const replies = await Promise.all([1, 2, 3].map((n) => single.get(`/status/${n}`)));
      expect(replies.map((r) => r.json.value.path)).toEqual(['/status/1', '/status/2', '/status/3']);
      expect(connections - before).toBe(1);
    } finally {
      single.close();
    }
  });

  it('answers a body that is not JSON with json undefined, whatever the status', async () => {
    const reply = await client.get('/text');
    expect(reply.status).toBe(404);
    expect(reply.text).toBe('Not Found');
    expect(reply.json).toBeUndefined();
  });

  it('fails a request the server never answers, after its timeout', async () => {
    const impatient = rawWda(url, { timeoutMs: 100 });
    try {
      await expect(impatient.get('/hang')).rejects.toThrow('GET /hang got no answer within 100 ms');
    } finally {
      impatient.close();
    }
  });

  it('rejects with the connection error when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nobody = rawWda(`http://127.0.0.1:${port}`);
    try {
      await expect(nobody.get('/status')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      nobody.close();
    }
  });
});

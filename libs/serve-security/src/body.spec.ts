import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBoundedBody, type BodyRead } from './body';

const LIMIT = 1000;

/** A real HTTP server that reads each request's body with the bound and reports what it got. */
function startServer(onRead: (read: BodyRead) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    void readBoundedBody(req, LIMIT).then((read) => {
      onRead(read);
      res.writeHead(read.kind === 'too_large' ? 413 : 200, { Connection: 'close' });
      res.end(read.kind);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

describe('reading a request body within a bound', () => {
  let server: Server;
  let port: number;
  let reads: BodyRead[];

  beforeEach(async () => {
    reads = [];
    ({ server, port } = await startServer((read) => reads.push(read)));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends the chunks (not ending the request when `end` is false); resolves with the answer, or on a reset. */
  function send(chunks: string[], headers: Record<string, string> = {}, end = true): Promise<{ status: number; text: string } | 'reset'> {
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', () => resolve('reset'));
      req.flushHeaders();
      for (const chunk of chunks) req.write(chunk);
      if (end) req.end();
    });
  }

  it('gives the bytes of a body within the limit, in one piece from several chunks', async () => {
    expect(await send(['{"a":', '1}'])).toEqual({ status: 200, text: 'body' });
    expect(reads).toEqual([{ kind: 'body', bytes: Buffer.from('{"a":1}') }]);
  });

  it('refuses a body whose Content-Length is past the limit before reading any of it', async () => {
    expect(await send([], { 'content-length': String(LIMIT + 1) }, false)).toEqual({ status: 413, text: 'too_large' });
    expect(reads).toEqual([{ kind: 'too_large' }]);
  });

  it('stops at the first byte past the limit of a streamed body, before the client has sent it all', async () => {
    // Never ended: only an answer given at the limit arrives.
    expect(await send(['x'.repeat(LIMIT), 'y'], {}, false)).toEqual({ status: 413, text: 'too_large' });
    expect(reads).toEqual([{ kind: 'too_large' }]);
  });

  it('says a body is unreadable when the client goes away in the middle of it', async () => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-length': '100' } });
    req.on('error', () => undefined);
    req.write('{"half":');
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    for (let i = 0; i < 100 && reads.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads).toEqual([{ kind: 'unreadable' }]);
  });
});

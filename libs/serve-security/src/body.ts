import type { IncomingMessage } from 'node:http';

/** What reading a request body gave: its bytes, or why there are none. */
export type BodyRead =
  | { kind: 'body'; bytes: Buffer }
  /** Past the limit: reading stopped there (at once when Content-Length said so), the rest is never read. */
  | { kind: 'too_large' }
  /** The client went away, or sent fewer bytes than its Content-Length. */
  | { kind: 'unreadable' };

/**
 * Reads a request body of at most `limit` bytes, for every face of Apex (REST bodies, MCP messages): one bound,
 * checked as the bytes arrive. After `too_large` the request is paused: answer it with `Connection: close`.
 */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return Promise.resolve({ kind: 'too_large' });
  // Already read to its end by someone else: there is nothing left to read (and no 'end' to wait for).
  if (req.readableEnded) return Promise.resolve({ kind: 'unreadable' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.pause();
      finish({ kind: 'too_large' });
    };
    const onEnd = () => {
      if (Number.isFinite(declared) && size !== declared) finish({ kind: 'unreadable' });
      else finish({ kind: 'body', bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    };
    const onGone = () => finish({ kind: 'unreadable' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

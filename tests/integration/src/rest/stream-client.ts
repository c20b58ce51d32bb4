import { request, type IncomingMessage } from 'node:http';
import { eventually } from '@apex/testing';

const WAIT = { timeoutMs: 30_000 };

/** A client of `GET …/stream`: the response, and the JPEG parts read by their Content-Length (its own reading). */
export class StreamClient {
  response!: IncomingMessage;
  frames: Buffer[] = [];
  ended = false;
  private bytes = Buffer.alloc(0);
  private readonly req;

  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    const client = new StreamClient(url, headers);
    return new Promise((resolve, reject) => {
      client.req.once('response', (res) => {
        client.response = res;
        // Only a stream has parts; a refusal's problem body is left unread.
        if (res.statusCode === 200) res.on('data', (chunk: Buffer) => client.read(chunk));
        else res.resume();
        res.on('close', () => (client.ended = true));
        resolve(client);
      });
      client.req.once('error', reject);
    });
  }

  private constructor(url: string, headers: Record<string, string>) {
    this.req = request(url, { headers });
    this.req.on('error', () => undefined);
    this.req.end();
  }

  private read(chunk: Buffer): void {
    this.bytes = Buffer.concat([this.bytes, chunk]);
    for (;;) {
      const headEnd = this.bytes.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = this.bytes.subarray(0, headEnd).toString('latin1');
      const length = Number(/Content-Length: (\d+)/i.exec(head)?.[1]);
      if (!head.startsWith('--apex-frame\r\nContent-Type: image/jpeg\r\n')) throw new Error(`not a part head: ${head}`);
      if (this.bytes.length < headEnd + 4 + length + 2) return;
      this.frames.push(this.bytes.subarray(headEnd + 4, headEnd + 4 + length));
      this.bytes = this.bytes.subarray(headEnd + 4 + length + 2);
    }
  }

  /** Waits for a frame after the `seen` first ones whose bytes differ from `than`. */
  changedFrame(than: Buffer, seen: number): Promise<Buffer> {
    return eventually(() => this.frames.slice(seen).find((frame) => !frame.equals(than)), { ...WAIT, what: 'a frame that differs' }) as Promise<Buffer>;
  }

  close(): void {
    this.req.destroy();
  }
}

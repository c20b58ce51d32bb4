import { rawWda, type RawReply, type RawWda, type RawWdaOptions } from '@apex/testing';
import { decode, type Pixels } from './pixels';

/** A WDA client for the specs: the test kit's raw client plus the session bookkeeping most specs need. */
export class WdaHttp {
  sessionId = '';
  private readonly raw: RawWda;

  constructor(
    readonly base: string,
    options: RawWdaOptions = {},
  ) {
    this.raw = rawWda(base, options);
  }

  /** Any method; a string body is sent as it is, anything else as JSON. */
  call(method: string, path: string, body?: unknown): Promise<RawReply> {
    return this.raw.request(method, path, body);
  }

  get(path: string): Promise<RawReply> {
    return this.raw.get(path);
  }

  post(path: string, body: unknown = {}): Promise<RawReply> {
    return this.raw.post(path, body);
  }

  /** The path under the current session. */
  s(path: string): string {
    return `/session/${this.sessionId}${path}`;
  }

  async createSession(caps: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.post('/session', { capabilities: { alwaysMatch: caps, firstMatch: [{}] } });
    if (reply.status !== 200) throw new Error(`session not created: ${reply.text}`);
    this.sessionId = reply.json.value.sessionId;
    return this.sessionId;
  }

  async find(using: string, value: string): Promise<string> {
    const reply = await this.post(this.s('/element'), { using, value });
    if (reply.status !== 200) throw new Error(`no element ${using}=${value}: ${reply.text}`);
    return reply.json.value.ELEMENT;
  }

  async source(): Promise<string> {
    return (await this.get('/source')).json.value;
  }

  /** The screenshot, decoded; `at` takes image pixels. */
  async screenshot(): Promise<Pixels> {
    return decode(Buffer.from((await this.get('/screenshot')).json.value, 'base64'));
  }
}

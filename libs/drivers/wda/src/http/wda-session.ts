import {
  isInvalidSession,
  WebDriverProtocolError,
  type HttpMethod,
  type WebDriverHttpClient,
  type WebDriverReply,
} from '@apex/webdriver-http';

/** Capabilities of a session that attaches to whatever is on screen: no bundleId, nothing launched. */
const NEUTRAL_CAPABILITIES = { capabilities: { alwaysMatch: {}, firstMatch: [{}] } };

export interface SessionRequest {
  method: HttpMethod;
  /** Path below `/session/:id`, e.g. `/wda/tap`. */
  path: string;
  body?: unknown;
  /** A read: may be re-sent after a closed kept-alive socket. */
  idempotent?: boolean;
  signal: AbortSignal;
}

/**
 * The one WDA session of a device, created on first use and reused. WDA holds a single session: when it
 * answers `invalid session id` (it restarted, or another client replaced the session), the session is
 * re-created once and the command sent again. That replay is safe for every command, taps included: WDA
 * rejects an unknown session before it acts. Transport failures are never replayed here (see the client).
 * A creation runs under the signal of the call that needs it; `onRenewed` hears when a session replaced a
 * lost one (the device may have restarted: what was learnt about it may be stale).
 */
export class WdaSession {
  private id?: string;
  private creating?: Promise<string>;

  constructor(
    private readonly client: WebDriverHttpClient,
    private readonly onRenewed?: () => void,
  ) {}

  get currentId(): string | undefined {
    return this.id;
  }

  async send(request: SessionRequest): Promise<WebDriverReply> {
    const id = await this.ensure(request.signal);
    try {
      return await this.client.send({ ...request, path: `/session/${id}${request.path}` });
    } catch (error) {
      if (!isInvalidSession(error)) throw error;
      this.forget(id);
      const fresh = await this.ensure(request.signal);
      this.onRenewed?.();
      return this.client.send({ ...request, path: `/session/${fresh}${request.path}` });
    }
  }

  /** Ends the session on the device (best effort). */
  async end(signal: AbortSignal): Promise<void> {
    const id = this.id;
    this.id = undefined;
    if (!id) return;
    await this.client.send({ method: 'DELETE', path: `/session/${id}`, signal }).catch(() => undefined);
  }

  private forget(id: string): void {
    if (this.id === id) this.id = undefined;
  }

  private ensure(signal: AbortSignal): Promise<string> {
    if (this.id) return Promise.resolve(this.id);
    if (!this.creating) {
      this.creating = this.client
        .send({ method: 'POST', path: '/session', body: NEUTRAL_CAPABILITIES, signal })
        .then((reply) => {
          const value = reply.value as { sessionId?: unknown } | null;
          const id = typeof value?.sessionId === 'string' ? value.sessionId : reply.sessionId;
          if (!id) throw new WebDriverProtocolError(200, 'session not created', 'the reply carried no session id', undefined, 'POST /session');
          this.id = id;
          return id;
        })
        .finally(() => {
          this.creating = undefined;
        });
    }
    return this.creating;
  }
}

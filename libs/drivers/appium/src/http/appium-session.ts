import { isInvalidSession, WebDriverMalformedReply, type HttpMethod, type WebDriverHttpClient } from '@apex/webdriver-http';

export interface SessionRequest {
  method: HttpMethod;
  /** Path below `/session/:id`, e.g. `/screenshot`. */
  path: string;
  body?: unknown;
  /** A read: may be re-sent after a closed kept-alive socket. */
  idempotent?: boolean;
  timeoutMs?: number;
  label?: string;
}

export interface AppiumSessionOptions {
  /** The `capabilities` object of `POST /session` (`{alwaysMatch, firstMatch}`). */
  capabilities: { alwaysMatch: Record<string, unknown>; firstMatch: Record<string, unknown>[] };
  /** Bound on creating a session (the server may have to start the on-device agent first). */
  startTimeoutMs: number;
  /** Bound on ending a session. */
  endTimeoutMs?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The device's one session on the automation server, created on first use and reused.
 *
 * `invalid session id` comes from two places and means the same thing to us: the server no longer knows our
 * session (it restarted, or ended the session after its idle timeout), or the server still has it but the
 * on-device agent behind it lost its own session (it restarted) — the server passes that error through and
 * does not recover by itself. Either way the old session is deleted (best effort: it frees the device on the
 * server), a new one is created, and the command is sent once more. That replay is safe for every command:
 * both the server and the on-device agent reject an unknown session before acting.
 *
 * Requests are sent one at a time. The server runs a session's commands one at a time anyway, so nothing is
 * lost; and a rebuild must never delete the session under a sibling request still in flight — the server
 * then answers that request with an error or, worse, never answers it (seen with the XCUITest driver).
 */
export class AppiumSession {
  private id?: string;
  private creating?: Promise<string>;
  private returnedCapabilities: Record<string, unknown> = {};
  /** The end of the one-at-a-time queue. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: WebDriverHttpClient,
    private readonly options: AppiumSessionOptions,
  ) {}

  get currentId(): string | undefined {
    return this.id;
  }

  /** The capabilities the server answered with when the session was created (e.g. `platformVersion`). */
  get capabilities(): Readonly<Record<string, unknown>> {
    return this.returnedCapabilities;
  }

  send(request: SessionRequest): Promise<unknown> {
    const result = this.tail.then(() => this.sendNow(request));
    this.tail = result.catch(() => undefined);
    return result;
  }

  private async sendNow(request: SessionRequest): Promise<unknown> {
    const id = await this.ensure();
    try {
      return (await this.client.send({ ...request, path: `/session/${id}${request.path}` })).value;
    } catch (error) {
      if (!isInvalidSession(error)) throw error;
      await this.discard(id);
      const fresh = await this.ensure();
      return (await this.client.send({ ...request, path: `/session/${fresh}${request.path}` })).value;
    }
  }

  /** Ends the session on the server (best effort). */
  async end(): Promise<void> {
    const id = this.id;
    this.id = undefined;
    if (id) await this.deleteQuietly(id);
  }

  private async discard(id: string): Promise<void> {
    if (this.id !== id) return;
    this.id = undefined;
    await this.deleteQuietly(id);
  }

  private async deleteQuietly(id: string): Promise<void> {
    await this.client
      .send({ method: 'DELETE', path: `/session/${id}`, timeoutMs: this.options.endTimeoutMs ?? 5_000 })
      .catch(() => undefined);
  }

  private ensure(): Promise<string> {
    if (this.id) return Promise.resolve(this.id);
    // One creation at a time; a caller that gave up (hub timeout) leaves it running for the next caller.
    this.creating ??= this.client
      .send({
        method: 'POST',
        path: '/session',
        body: { capabilities: this.options.capabilities },
        timeoutMs: this.options.startTimeoutMs,
        label: 'new session',
      })
      .then(({ value }) => {
        const id = isRecord(value) && typeof value.sessionId === 'string' ? value.sessionId : undefined;
        if (!id) throw new WebDriverMalformedReply(200, 'POST /session', 'the reply carried no session id');
        this.returnedCapabilities = isRecord(value) && isRecord(value.capabilities) ? value.capabilities : {};
        this.id = id;
        return id;
      })
      .finally(() => {
        this.creating = undefined;
      });
    return this.creating;
  }
}

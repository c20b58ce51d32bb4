import {
  isInvalidSession,
  WebDriverMalformedReply,
  WebDriverTransportError,
  type HttpMethod,
  type WebDriverHttpClient,
} from '@apex/webdriver-http';

export interface SessionRequest {
  method: HttpMethod;
  /** Path below `/session/:id`, e.g. `/screenshot`. */
  path: string;
  body?: unknown;
  /** A read: may be re-sent after a closed kept-alive socket. */
  idempotent?: boolean;
  label?: string;
  signal: AbortSignal;
}

export interface AppiumSessionOptions {
  /** The `capabilities` object of `POST /session` (`{alwaysMatch, firstMatch}`). */
  capabilities: { alwaysMatch: Record<string, unknown>; firstMatch: Record<string, unknown>[] };
  /** Bound on creating a session (the server may have to start the on-device agent first). */
  startTimeoutMs: number;
  /** Hears when a session replaced a lost one: what was learnt about the device may be stale. */
  onRenewed?: () => void;
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
 *
 * Creating a session may take longer than a caller waits (the server may first build and start the agent):
 * it runs under its own bound, and a caller whose signal aborts stops waiting but leaves it running for the
 * next caller. Every other request ends with its caller's signal.
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
    const id = await this.ensure(request.signal);
    try {
      return (await this.client.send({ ...request, path: `/session/${id}${request.path}` })).value;
    } catch (error) {
      if (!isInvalidSession(error)) throw error;
      await this.discard(id, request.signal);
      const fresh = await this.ensure(request.signal);
      this.options.onRenewed?.();
      return (await this.client.send({ ...request, path: `/session/${fresh}${request.path}` })).value;
    }
  }

  /** Ends the session on the server (best effort). */
  async end(signal: AbortSignal): Promise<void> {
    const id = this.id;
    this.id = undefined;
    if (id) await this.deleteQuietly(id, signal);
  }

  private async discard(id: string, signal: AbortSignal): Promise<void> {
    if (this.id !== id) return;
    this.id = undefined;
    await this.deleteQuietly(id, signal);
  }

  private async deleteQuietly(id: string, signal: AbortSignal): Promise<void> {
    await this.client.send({ method: 'DELETE', path: `/session/${id}`, signal }).catch(() => undefined);
  }

  /** The session id; waiting for a creation ends with the caller's signal, the creation does not. */
  private ensure(signal: AbortSignal): Promise<string> {
    if (this.id) return Promise.resolve(this.id);
    this.creating ??= this.client
      .send({
        method: 'POST',
        path: '/session',
        body: { capabilities: this.options.capabilities },
        signal: AbortSignal.timeout(this.options.startTimeoutMs),
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
    return untilAborted(this.creating, signal);
  }
}

/** Settles with `work`, or rejects as `aborted` as soon as `signal` aborts; `work` itself goes on. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function cancelled(signal: AbortSignal): WebDriverTransportError {
  return new WebDriverTransportError('aborted', 'POST /session (new session): the caller stopped waiting', false, { cause: signal.reason });
}

import { isInvalidSession, WebDriverMalformedReply, WebDriverTransportError } from './errors';
import type { HttpMethod, WebDriverHttpClient, WebDriverReply } from './client';

export interface SessionRequest {
  method: HttpMethod;
  /** Path below `/session/:id`, e.g. `/screenshot`. */
  path: string;
  body?: unknown;
  /** A read: may be re-sent after a closed kept-alive socket (the client's rule, never this class's). */
  idempotent?: boolean;
  /** Added to the route in errors, e.g. the `mobile:` command name (logs only). */
  label?: string;
  signal: AbortSignal;
}

/** The `capabilities` object of `POST /session`. */
export interface SessionCapabilities {
  alwaysMatch: Record<string, unknown>;
  firstMatch: Record<string, unknown>[];
}

export interface WebDriverSessionOptions {
  capabilities: SessionCapabilities;
  /**
   * Bound on creating a session. The creation runs under it, not under the caller's signal: a caller that
   * gives up stops waiting, and the creation goes on for the callers that share it (and the next one).
   */
  startTimeoutMs: number;
  /**
   * Send the requests one at a time (a server that runs a session's commands one at a time anyway, and that
   * must never see its session deleted under a sibling request still in flight).
   */
  oneAtATime?: boolean;
  /**
   * End a lost session on the server before creating the next one: behind a device lab's hub, the hub holds
   * the phone for a session until it is deleted through the hub, even after the automation server behind it
   * restarted and forgot it. A delete that does not get through (the node is still down) is tried again
   * before every later session creation, until the server answers it.
   */
  deleteLostSession?: boolean;
  /** Hears when a session replaced a lost one: what was learnt about the device (caches) may be stale. */
  onRenewed?: () => void;
  /**
   * Checks a created session's returned capabilities (e.g. a grid routed it to the phone asked for): when it
   * throws, the session is deleted at once and never used, and the error goes to the callers.
   */
  verify?: (capabilities: Record<string, unknown>) => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A device's one WebDriver session, created on first use and reused; concurrent first callers share one
 * creation. When the server answers `invalid session id` (it restarted, timed the session out, or another
 * client replaced it), the session is re-created ONCE and the command sent again: safe for every command,
 * because a server rejects an unknown session before it acts. After a transport failure nothing is re-sent
 * here: a mutation may have arrived (reads are the client's business, see `idempotent`).
 */
export class WebDriverSession {
  private id?: string;
  private creating?: Promise<string>;
  private returnedCapabilities: Record<string, unknown> = {};
  /** The end of the one-at-a-time queue (`oneAtATime`). */
  private tail: Promise<unknown> = Promise.resolve();
  /** Lost sessions whose delete has not got through yet (`deleteLostSession`), oldest first. */
  private readonly lost: string[] = [];
  /** Sessions this client created and has ended or lost (newest last): a server's stale listing of one is not another client. */
  private readonly former: string[] = [];

  constructor(
    private readonly client: WebDriverHttpClient,
    private readonly options: WebDriverSessionOptions,
  ) {}

  /** The id of the session in use, if one was created. */
  get currentId(): string | undefined {
    return this.id;
  }

  /** Whether `id` is a session this client created (the current one, or one it lost or ended lately). */
  owns(id: string): boolean {
    return id === this.id || this.lost.includes(id) || this.former.includes(id);
  }

  /** The capabilities the server answered with when the session was created (e.g. `platformVersion`). */
  get capabilities(): Readonly<Record<string, unknown>> {
    return this.returnedCapabilities;
  }

  send(request: SessionRequest): Promise<WebDriverReply> {
    if (!this.options.oneAtATime) return this.sendNow(request);
    const result = this.tail.then(() => this.sendNow(request));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Ends the session on the server (best effort). */
  async end(signal: AbortSignal): Promise<void> {
    const id = this.id;
    this.id = undefined;
    if (id) {
      this.remember(id);
      await this.deleteQuietly(id, signal);
    }
  }

  private async sendNow(request: SessionRequest): Promise<WebDriverReply> {
    const id = await this.ensure(request.signal);
    try {
      return await this.client.send({ ...request, path: `/session/${id}${request.path}` });
    } catch (error) {
      if (!isInvalidSession(error)) throw error;
      await this.discard(id, request.signal);
      const fresh = await this.ensure(request.signal);
      this.options.onRenewed?.();
      return this.client.send({ ...request, path: `/session/${fresh}${request.path}` });
    }
  }

  private async discard(id: string, signal: AbortSignal): Promise<void> {
    if (this.id !== id) return;
    this.id = undefined;
    this.remember(id);
    if (!this.options.deleteLostSession) return;
    this.lost.push(id);
    if (this.lost.length > MAX_REMEMBERED) this.lost.shift();
    await this.endLost(signal);
  }

  /** Deletes the lost sessions; one the server answers (deleted, or unknown to it) is done, others stay. */
  private async endLost(signal: AbortSignal): Promise<void> {
    for (const id of [...this.lost]) {
      const answered = await this.client.send({ method: 'DELETE', path: `/session/${id}`, signal }).then(
        () => true,
        (error: unknown) => isInvalidSession(error),
      );
      if (answered) this.lost.splice(this.lost.indexOf(id), 1);
    }
  }

  private remember(id: string): void {
    this.former.push(id);
    if (this.former.length > MAX_REMEMBERED) this.former.shift();
  }

  private async deleteQuietly(id: string, signal: AbortSignal): Promise<void> {
    await this.client.send({ method: 'DELETE', path: `/session/${id}`, signal }).catch(() => undefined);
  }

  private async verified(id: string, capabilities: Record<string, unknown>): Promise<string> {
    try {
      this.options.verify?.(capabilities);
    } catch (error) {
      await this.deleteQuietly(id, AbortSignal.timeout(this.options.startTimeoutMs));
      throw error;
    }
    this.returnedCapabilities = capabilities;
    this.id = id;
    return id;
  }

  /** `POST /session`, after the lost sessions are ended (a hub would queue the request behind them). */
  private async createSession(): Promise<WebDriverReply> {
    const signal = AbortSignal.timeout(this.options.startTimeoutMs);
    if (this.lost.length > 0) await this.endLost(signal);
    return this.client.send({ method: 'POST', path: '/session', body: { capabilities: this.options.capabilities }, signal, label: 'new session' });
  }

  /** The session id; waiting for a creation ends with the caller's signal, the creation does not. */
  private ensure(signal: AbortSignal): Promise<string> {
    if (this.id) return Promise.resolve(this.id);
    this.creating ??= this.createSession()
      .then((reply) => {
        const value = isRecord(reply.value) ? reply.value : {};
        // W3C puts the id in the value; older WebDriverAgent builds only in the envelope.
        const id = typeof value.sessionId === 'string' && value.sessionId ? value.sessionId : reply.sessionId;
        if (!id) throw new WebDriverMalformedReply(200, 'POST /session', 'the reply carried no session id');
        const capabilities = isRecord(value.capabilities) ? value.capabilities : {};
        return this.verified(id, capabilities);
      })
      .finally(() => {
        this.creating = undefined;
      });
    return untilAborted(this.creating, signal);
  }
}

/** Sessions remembered as lost or former (a handful: sessions are rarely lost). */
const MAX_REMEMBERED = 8;

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
  const timedOut = (signal.reason as { name?: unknown } | null)?.name === 'TimeoutError';
  return new WebDriverTransportError(
    timedOut ? 'response_timeout' : 'aborted',
    'POST /session (new session): the caller stopped waiting',
    false,
    { cause: signal.reason },
  );
}

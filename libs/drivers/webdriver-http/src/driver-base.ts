import type { ApexError } from '@apex/errors';
import { WebDriverHttpClient } from './client';
import { WebDriverSession, type WebDriverSessionOptions } from './session';
import { translateWebDriverFailure, type FailureWording } from './translate';

export interface WebDriverBackedOptions {
  /** The device's id in Apex, used in error messages. */
  deviceId: string;
  /** The server's address (a base path such as /wd/hub is kept). */
  baseUrl: string;
  /** Bound on one TCP connect. */
  connectTimeoutMs: number;
  /** The `Authorization` header of every request (a device cloud's credentials). */
  authorization?: string;
  session: Omit<WebDriverSessionOptions, 'onRenewed'>;
  wording: FailureWording;
}

/**
 * What every driver over a WebDriver-style server shares: the client, the one session, closing both, and
 * the guard that turns every failure into an ApexError in the driver's wording.
 */
export abstract class WebDriverBackedDriver {
  protected readonly client: WebDriverHttpClient;
  protected readonly session: WebDriverSession;
  private readonly deviceId: string;
  private readonly wording: FailureWording;

  protected constructor(options: WebDriverBackedOptions) {
    this.deviceId = options.deviceId;
    this.wording = options.wording;
    this.client = new WebDriverHttpClient({ baseUrl: options.baseUrl, connectTimeoutMs: options.connectTimeoutMs, authorization: options.authorization });
    this.session = new WebDriverSession(this.client, { ...options.session, onRenewed: () => this.sessionRenewed() });
  }

  /** A session replaced a lost one: the device may have restarted, so forget what was learnt about it. */
  protected abstract sessionRenewed(): void;

  /** Ends the session (best effort) and closes the kept-alive sockets. */
  async close(signal: AbortSignal): Promise<void> {
    await this.session.end(signal);
    this.client.close();
  }

  /** The id of the session in use, if one was created (for diagnostics and tests). */
  get sessionId(): string | undefined {
    return this.session.currentId;
  }

  /**
   * Whether a session a server lists (a device lab's slot) is this driver's: the current one, or one it lost
   * or ended lately (the listing may be older than the driver's own news).
   */
  ownsSession(id: string): boolean {
    return this.session.owns(id);
  }

  /** Runs one port call; whatever fails leaves as an ApexError naming the device and `action`. */
  protected async guard<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.translate(error, action);
    }
  }

  protected translate(error: unknown, action: string): ApexError {
    return translateWebDriverFailure(error, this.deviceId, action, this.wording);
  }
}

import type { WebDriverHttpClient } from '@apex/webdriver-http';
import type { WdaSession } from './http/wda-session';

/** What every command needs: the HTTP client (session-less routes) and the session (session routes). */
export interface WdaContext {
  readonly deviceId: string;
  readonly client: WebDriverHttpClient;
  readonly session: WdaSession;
  /** Bound on the slow reads (screenshot, source). */
  readonly slowTimeoutMs: number;
  /** Pixels per point, read once from the device. */
  scale?: number;
}

import type { WebDriverHttpClient } from '@apex/webdriver-http';
import type { WdaSession } from './http/wda-session';

/** What every command needs: the HTTP client (session-less routes) and the session (session routes). */
export interface WdaContext {
  readonly deviceId: string;
  readonly client: WebDriverHttpClient;
  readonly session: WdaSession;
  /** Pixels per point, from the last screen read; forgotten when the session is re-created (another boot). */
  scale?: number;
}

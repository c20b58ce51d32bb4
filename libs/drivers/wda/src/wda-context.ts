import type { SourceMemo } from '@apex/ios-source';
import type { WebDriverHttpClient, WebDriverSession } from '@apex/webdriver-http';

/** What every command needs: the HTTP client (session-less routes) and the session (session routes). */
export interface WdaContext {
  readonly deviceId: string;
  readonly client: WebDriverHttpClient;
  readonly session: WebDriverSession;
  /** The last screen source and its tree. */
  readonly sources: SourceMemo;
  /** Pixels per point, from the last screen read; forgotten when the session is re-created (another boot). */
  scale?: number;
}

import type { WdaHttpClient } from './http/wda-http-client';
import type { WdaSession } from './http/wda-session';

/** What every command needs: the HTTP client (session-less routes) and the session (session routes). */
export interface WdaContext {
  readonly deviceId: string;
  readonly client: WdaHttpClient;
  readonly session: WdaSession;
  /** Bound on the slow reads (screenshot, source). */
  readonly slowTimeoutMs: number;
  /** Pixels per point, read once from the device. */
  scale?: number;
}

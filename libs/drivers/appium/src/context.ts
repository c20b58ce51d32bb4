import { WebDriverProtocolError, type SessionRequest, type WebDriverSession } from '@apex/webdriver-http';
import { isDeviceUnreachable } from './errors';

/** What every command needs. */
export interface AppiumContext {
  readonly deviceId: string;
  /** Every command goes through the session (the server has no session-less device routes). */
  readonly session: WebDriverSession;
  /** The automation server's address (e.g. to know whether it runs on this computer). */
  readonly serverUrl: string;
  /**
   * Pixels per point (iOS) or per density-independent pixel (Android), read once per session: forgotten when
   * a session replaces a lost one.
   */
  scale?: number;
  /** The device's fixed facts (model, name, OS), read once; `failedAt` when the server could not read them. */
  deviceInfo?: { facts?: Record<string, unknown>; failedAt?: number };
}

export interface MobileOptions {
  /** A read: may be re-sent after a closed kept-alive socket. */
  idempotent?: boolean;
  signal: AbortSignal;
}

/** One command of the session (a path below `/session/:id`); resolves with the reply's value. */
export async function command(ctx: AppiumContext, request: SessionRequest): Promise<unknown> {
  return (await ctx.session.send(request)).value;
}

/** Runs one of the platform driver's `mobile:` extension commands (`POST /execute/sync`). */
export function mobile(ctx: AppiumContext, name: string, args: Record<string, unknown> | undefined, options: MobileOptions): Promise<unknown> {
  const script = `mobile: ${name}`;
  return command(ctx, {
    method: 'POST',
    path: '/execute/sync',
    body: { script, args: args ? [args] : [] },
    label: script,
    ...options,
  });
}

/**
 * A read whose absence must not fail the caller (status fields): the server or the platform may lack it.
 * An error envelope leaves the field out; an unreachable device or server still fails the call.
 */
export async function optional<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof WebDriverProtocolError && !isDeviceUnreachable(error)) return undefined;
    throw error;
  }
}

/** How long a failed `mobile: deviceInfo` is not asked again (on Linux it always fails, and costs a round trip). */
const DEVICE_INFO_RETRY_MS = 60_000;

/** `mobile: deviceInfo`, read once per driver (the facts do not change); a failure is retried after a minute. */
export async function deviceInfo(ctx: AppiumContext, signal: AbortSignal): Promise<Record<string, unknown> | undefined> {
  const known = ctx.deviceInfo;
  if (known?.facts || (known?.failedAt !== undefined && Date.now() - known.failedAt < DEVICE_INFO_RETRY_MS)) return known.facts;
  const facts = asRecord(await optional(() => mobile(ctx, 'deviceInfo', undefined, { idempotent: true, signal })));
  ctx.deviceInfo = facts ? { facts } : { failedAt: Date.now() };
  return facts;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

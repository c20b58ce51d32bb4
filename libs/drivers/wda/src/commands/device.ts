import type { DriverStatus, HardwareButton, Orientation } from '@apex/port';
import { agentStatusFields, assertIPhoneButton, buttonFailure, type IPhoneButton } from '@apex/ios-source';
import { WebDriverMalformedReply, WebDriverProtocolError, withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';
import { screenGeometry } from './screen';

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * A route whose absence must not fail the status: WDA builds differ. An error envelope (`unknown command`,
 * or a route that fails on this hardware) leaves the field out; a transport failure still propagates.
 */
async function optional<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof WebDriverProtocolError) return undefined;
    throw error;
  }
}

export async function status(ctx: WdaContext, signal: AbortSignal): Promise<DriverStatus> {
  const get = (path: string) => ctx.client.send({ method: 'GET', path, idempotent: true, signal }).then((r) => r.value);
  const [server, screen, info, active, locked, orientation, battery] = await Promise.all([
    get('/status'),
    screenGeometry(ctx, signal),
    optional(() => get('/wda/device/info')),
    optional(() => get('/wda/activeAppInfo')),
    optional(() => get('/wda/locked')),
    optional(() => get('/orientation')),
    // The only status route that needs a session.
    optional(() => ctx.session.send({ method: 'GET', path: '/wda/batteryInfo', idempotent: true, signal }).then((r) => r.value)),
  ]);
  const serverInfo = asRecord(server);
  if (!serverInfo) throw new WebDriverMalformedReply(200, 'GET /status', JSON.stringify(server).slice(0, 200));

  const result: DriverStatus = { platform: 'ios', screen };
  const osVersion = text(asRecord(serverInfo.os)?.version);
  if (osVersion) result.osVersion = osVersion;
  const deviceInfo = asRecord(info);
  const model = text(deviceInfo?.model);
  if (model) result.model = model;
  const name = text(deviceInfo?.name);
  if (name) result.name = name;
  const orientationName = typeof orientation === 'string' ? orientation.toUpperCase() : undefined;
  if (orientationName) result.orientation = (orientationName.startsWith('LANDSCAPE') ? 'landscape' : 'portrait') as Orientation;
  Object.assign(result, agentStatusFields({ activeApp: active, battery, locked }));
  return result;
}

/** Cheap reachability probe: `/status` needs no session. */
export async function ping(ctx: WdaContext, signal: AbortSignal): Promise<void> {
  await ctx.client.send({ method: 'GET', path: '/status', idempotent: true, signal });
}

const BUTTON_NAMES: Record<IPhoneButton, string> = { home: 'home', volumeUp: 'volumeup', volumeDown: 'volumedown' };

/** An unknown or absent button is `500 unknown error` "The button 'x' is not supported…" → unsupported. */
export async function pressButton(ctx: WdaContext, button: HardwareButton, signal: AbortSignal): Promise<void> {
  assertIPhoneButton(ctx.deviceId, button);
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/wda/pressButton', body: { name: BUTTON_NAMES[button] }, signal }),
    (e) => buttonFailure(e, ctx.deviceId, button),
  );
}

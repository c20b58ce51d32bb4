import type { DriverStatus, HardwareButton } from '@apex/port';
import { agentStatusFields, assertIPhoneButton, buttonFailure, type IPhoneButton } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import { orientationOf, readWindowSize } from '../common';
import { asRecord, command, deviceInfo, mobile, nonEmptyText, optional, type AppiumContext } from '../context';
import { screenGeometry } from './screen';

/**
 * The screen is required; everything else is "where known". On Linux `mobile: deviceInfo` fails (it also
 * asks the phone over a USB service only a Mac has), so the model and name are then absent and the OS
 * version comes from the session's capabilities.
 */
export async function status(ctx: AppiumContext, signal: AbortSignal): Promise<DriverStatus> {
  const read = (name: string) => optional(() => mobile(ctx, name, undefined, { idempotent: true, signal }));
  const [screen, facts, active, locked, orientation, battery] = await Promise.all([
    screenGeometry(ctx, signal),
    deviceInfo(ctx, signal),
    read('activeAppInfo'),
    read('isLocked'),
    optional(() => command(ctx, { method: 'GET', path: '/orientation', idempotent: true, signal })),
    read('batteryInfo'),
  ]);
  const result: DriverStatus = { platform: 'ios', screen };
  const osVersion = nonEmptyText(asRecord(facts?.lockdownInfo)?.ProductVersion) ?? nonEmptyText(ctx.session.capabilities.platformVersion);
  if (osVersion) result.osVersion = osVersion;
  const model = nonEmptyText(facts?.model);
  if (model) result.model = model;
  const name = nonEmptyText(facts?.name);
  if (name) result.name = name;
  const turned = orientationOf(orientation);
  if (turned) result.orientation = turned;
  Object.assign(result, agentStatusFields({ activeApp: active, battery, locked }));
  return result;
}

const BUTTON_NAMES: Record<IPhoneButton, string> = { home: 'home', volumeUp: 'volumeup', volumeDown: 'volumedown' };

/** `mobile: pressButton` → `/wda/pressButton`; "The button 'x' is not supported…" → unsupported. */
export async function pressButton(ctx: AppiumContext, button: HardwareButton, signal: AbortSignal): Promise<void> {
  assertIPhoneButton(ctx.deviceId, button);
  await withRouteMeaning(
    () => mobile(ctx, 'pressButton', { name: BUTTON_NAMES[button] }, { signal }),
    (e) => buttonFailure(e, ctx.deviceId, button),
  );
}

/** A round trip to the phone itself (`/window/rect` is forwarded to the agent), not only to the server. */
export async function ping(ctx: AppiumContext, signal: AbortSignal): Promise<void> {
  await readWindowSize(ctx, signal);
}

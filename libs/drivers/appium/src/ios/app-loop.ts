import { ApexError } from '@apex/errors';
import type { AppState, GeoLocation, LaunchOptions } from '@apex/port';
import { appStateOf, launchFailure, localeArguments } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import { mobile, type AppiumContext } from '../context';

/**
 * The developer's loop through the XCUITest driver's `mobile:` commands that the agent on the phone serves
 * (`lib/commands/app-management.js`, `geolocation.js`): they work wherever the server reaches the agent,
 * Linux included. Install, permissions, biometrics and pushes need the server's own host tools for a simulator
 * (`mobile: installApp`, `setPermission`, `enrollBiometric`, `pushNotification`): not mapped yet.
 */

/** `mobile: queryAppState` → `/wda/apps/state`. */
export async function appState(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<AppState> {
  return appStateOf(await mobile(ctx, 'queryAppState', { bundleId: appId }, { idempotent: true, signal }));
}

/** `mobile: backgroundApp`: without seconds the home screen (the app stays behind); with, `/wda/deactivateApp`. */
export async function backgroundApp(ctx: AppiumContext, seconds: number | undefined, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'backgroundApp', seconds === undefined ? {} : { seconds }, { signal });
}

/** `mobile: setSimulatedLocation` / `resetSimulatedLocation` → `/wda/simulatedLocation` (iOS 16.4+). */
export async function setLocation(ctx: AppiumContext, location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
  if (location === undefined) {
    await mobile(ctx, 'resetSimulatedLocation', undefined, { signal });
    return;
  }
  if (location.altitude !== undefined) {
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot simulate an altitude.`, { hint: 'Leave altitude out: latitude and longitude are simulated.' });
  }
  await mobile(ctx, 'setSimulatedLocation', { latitude: location.latitude, longitude: location.longitude }, { signal });
}

/** `mobile: terminateApp`, then `mobile: launchApp {bundleId, arguments, environment}` (ignored by a running app). */
export async function launchAppWith(ctx: AppiumContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  const args = [...(options.arguments ?? []), ...(options.locale ? localeArguments(options.locale) : [])];
  await mobile(ctx, 'terminateApp', { bundleId: appId }, { signal }).catch(() => undefined);
  await withRouteMeaning(
    () => mobile(ctx, 'launchApp', { bundleId: appId, arguments: args, environment: options.environment ?? {} }, { signal }),
    (e) => launchFailure(e, ctx.deviceId, appId),
  );
}

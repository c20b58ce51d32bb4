import { ApexError } from '@apex/errors';
import type { AppState, GeoLocation, LaunchOptions } from '@apex/port';
import { appStateOf, launchFailure, localeArguments } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

export async function appState(ctx: WdaContext, appId: string, signal: AbortSignal): Promise<AppState> {
  const reply = await ctx.session.send({ method: 'POST', path: '/wda/apps/state', body: { bundleId: appId }, idempotent: true, signal });
  return appStateOf(reply.value);
}

/**
 * `/wda/apps/launch {bundleId, arguments, environment}`. The agent ignores arguments for an app that already
 * runs, so it is terminated first: the new process gets them.
 */
export async function launchAppWith(ctx: WdaContext, appId: string, options: LaunchOptions, signal: AbortSignal): Promise<void> {
  const args = [...(options.arguments ?? []), ...(options.locale ? localeArguments(options.locale) : [])];
  await ctx.session.send({ method: 'POST', path: '/wda/apps/terminate', body: { bundleId: appId }, signal }).catch(() => undefined);
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/wda/apps/launch', body: { bundleId: appId, arguments: args, environment: options.environment ?? {} }, signal }),
    (e) => launchFailure(e, ctx.deviceId, appId),
  );
}

/**
 * Without `seconds`: the home screen (`/wda/homescreen`), the app stays in the background. With: the agent's
 * `/wda/deactivateApp {duration}` goes home, waits, and brings the app back (FBCustomCommands.m), as Appium's
 * `background` does.
 */
export async function backgroundApp(ctx: WdaContext, seconds: number | undefined, signal: AbortSignal): Promise<void> {
  if (seconds === undefined) await ctx.client.send({ method: 'POST', path: '/wda/homescreen', signal });
  else await ctx.session.send({ method: 'POST', path: '/wda/deactivateApp', body: { duration: seconds }, signal });
}

/** `/wda/simulatedLocation` (iOS 16.4+; no session needed): POST `{latitude, longitude}`, DELETE to clear. */
export async function setLocation(ctx: WdaContext, location: GeoLocation | undefined, signal: AbortSignal): Promise<void> {
  if (location === undefined) {
    await ctx.client.send({ method: 'DELETE', path: '/wda/simulatedLocation', signal });
    return;
  }
  if (location.altitude !== undefined) {
    // The agent takes a latitude and a longitude only; an altitude would be dropped.
    throw new ApexError('unsupported_operation', `Device ${ctx.deviceId} cannot simulate an altitude.`, { hint: 'Leave altitude out: latitude and longitude are simulated.' });
  }
  await ctx.client.send({ method: 'POST', path: '/wda/simulatedLocation', body: { latitude: location.latitude, longitude: location.longitude }, signal });
}

import type { AppRef, InstalledApp } from '@apex/port';
import { foregroundAppOf, launchFailure } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import { asRecord, mobile, nonEmptyText, type AppiumContext } from '../context';

/**
 * `mobile: launchApp` → the agent's `/wda/apps/launch` (launches, or brings to the front). The server passes
 * the agent's `invalid argument` through for an app that is not installed, so here it means "no such app".
 */
export async function launchApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => mobile(ctx, 'launchApp', { bundleId: appId }, { signal }),
    (e) => launchFailure(e, ctx.deviceId, appId),
  );
}

/** `mobile: terminateApp` → `/wda/apps/terminate`; false when the app was not running. */
export async function terminateApp(ctx: AppiumContext, appId: string, signal: AbortSignal): Promise<boolean> {
  return (await mobile(ctx, 'terminateApp', { bundleId: appId }, { signal })) === true;
}

/** `mobile: activeAppInfo` → the agent's `/wda/activeAppInfo`: one request. */
export async function foregroundApp(ctx: AppiumContext, signal: AbortSignal): Promise<AppRef | undefined> {
  return foregroundAppOf(await mobile(ctx, 'activeAppInfo', undefined, { idempotent: true, signal }));
}

/**
 * The running apps as far as they can be read through the server: the foreground app (`mobile: activeAppInfo`).
 * The agent's list of running apps has no `mobile:` command, and `mobile: listApps` (installed apps) needs
 * a connection to the phone that only a Mac has.
 */
export async function listRunningApps(ctx: AppiumContext, signal: AbortSignal): Promise<InstalledApp[]> {
  const active = asRecord(await mobile(ctx, 'activeAppInfo', undefined, { idempotent: true, signal }));
  const appId = nonEmptyText(active?.bundleId);
  if (!appId) return [];
  const app: InstalledApp = { appId, running: true };
  const name = nonEmptyText(active?.name);
  if (name) app.name = name;
  return [app];
}

import type { InstalledApp } from '@apex/port';
import type { AppRef } from '@apex/port';
import { foregroundAppOf, launchFailure } from '@apex/ios-source';
import { withRouteMeaning } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/**
 * Launches (or brings to the front) an app. On a real device an app that is not installed answers
 * `invalid argument` from this route (the system's open-application service returns nil), so here that
 * error means "no such app", not a caller mistake.
 */
export async function launchApp(ctx: WdaContext, appId: string, signal: AbortSignal): Promise<void> {
  await withRouteMeaning(
    () => ctx.session.send({ method: 'POST', path: '/wda/apps/launch', body: { bundleId: appId }, signal }),
    (e) => launchFailure(e, ctx.deviceId, appId),
  );
}

/** Resolves to false when the app was not running. */
export async function terminateApp(ctx: WdaContext, appId: string, signal: AbortSignal): Promise<boolean> {
  const reply = await ctx.session.send({ method: 'POST', path: '/wda/apps/terminate', body: { bundleId: appId }, signal });
  return reply.value === true;
}

/** `GET /wda/activeAppInfo` (no session needed): one request. */
export async function foregroundApp(ctx: WdaContext, signal: AbortSignal): Promise<AppRef | undefined> {
  const reply = await ctx.client.send({ method: 'GET', path: '/wda/activeAppInfo', idempotent: true, signal });
  return foregroundAppOf(reply.value);
}

/**
 * The apps running now (foreground first when the device says which it is). The protocol cannot list
 * installed apps, so this is honestly "running apps", each with `running: true`.
 */
export async function listRunningApps(ctx: WdaContext, signal: AbortSignal): Promise<InstalledApp[]> {
  const reply = await ctx.session.send({ method: 'GET', path: '/wda/apps/list', idempotent: true, signal });
  const entries = Array.isArray(reply.value) ? reply.value : [];
  const apps: InstalledApp[] = [];
  for (const entry of entries) {
    const bundleId = (entry as { bundleId?: unknown } | null)?.bundleId;
    if (typeof bundleId === 'string' && bundleId && !apps.some((a) => a.appId === bundleId)) {
      apps.push({ appId: bundleId, running: true });
    }
  }
  const active = await ctx.client
    .send({ method: 'GET', path: '/wda/activeAppInfo', idempotent: true, signal })
    .then((r) => r.value as { bundleId?: unknown; name?: unknown } | null)
    .catch(() => null);
  if (active && typeof active.bundleId === 'string') {
    const index = apps.findIndex((a) => a.appId === active.bundleId);
    const foreground: InstalledApp = { appId: active.bundleId, running: true };
    if (typeof active.name === 'string' && active.name) foreground.name = active.name;
    if (index >= 0) apps.splice(index, 1);
    apps.unshift(foreground);
  }
  return apps;
}

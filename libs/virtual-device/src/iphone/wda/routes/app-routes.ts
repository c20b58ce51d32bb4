import { PhoneError } from '../../model';
import type { Route, RouteContext } from '../router';
import { WdaError } from '../wda-error';
import { onPhone, requireString } from './helpers';

/** App lifecycle (FBSessionCommands.m, FBSession.m). */

/** What a real WDA relays from the system's open-application service for a bundle id that is not installed. */
export function unknownAppMessage(bundleId: string): string {
  return (
    `The operation couldn’t be completed. (FBSOpenApplicationServiceErrorDomain error 1.) ` +
    `Error Domain=FBSOpenApplicationServiceErrorDomain Code=1 "The request to open "${bundleId}" failed." ` +
    `UserInfo={NSLocalizedFailureReason=The request was denied by service delegate (SBMainWorkspace) for reason: ` +
    `Application info provider (FBSApplicationLibrary) returned nil for "${bundleId}"}`
  );
}

/** An app that is not installed is simply not running (terminate → false, state → 1). */
function unlessNotInstalled<T>(call: () => T, fallback: T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof PhoneError && error.kind === 'app_not_installed') return fallback;
    return onPhone(() => {
      throw error;
    });
  }
}

function launch(context: RouteContext) {
  const bundleId = requireString(context, 'bundleId');
  onPhone(() => context.phone.launchApp(bundleId), {
    app_not_installed: () => new WdaError('invalid argument', unknownAppMessage(bundleId)),
  });
  const args = context.body['arguments'];
  const env = context.body['environment'];
  context.face.launchArguments.set(bundleId, {
    args: Array.isArray(args) ? args.map(String) : [],
    env: typeof env === 'object' && env !== null && !Array.isArray(env) ? (env as Record<string, string>) : {},
  });
  return null;
}

function activeAppInfo(context: RouteContext) {
  const app = context.phone.activeApp();
  const launched = context.face.launchArguments.get(app.bundleId) ?? { args: [], env: {} };
  return { pid: app.pid, bundleId: app.bundleId, name: app.name, processArguments: launched };
}

export const appRoutes: Route[] = [
  { method: 'POST', pattern: '/wda/apps/launch', mode: 'S', handler: launch },
  {
    method: 'POST',
    pattern: '/wda/apps/activate',
    mode: 'S',
    handler: (context) => {
      const bundleId = requireString(context, 'bundleId');
      onPhone(() => context.phone.launchApp(bundleId), {
        app_not_installed: () => new WdaError('invalid argument', unknownAppMessage(bundleId)),
      });
      return null;
    },
  },
  {
    method: 'POST',
    pattern: '/wda/apps/terminate',
    mode: 'S',
    handler: (context) => {
      const bundleId = requireString(context, 'bundleId');
      return unlessNotInstalled(() => context.phone.terminateApp(bundleId), false);
    },
  },
  {
    method: 'POST',
    pattern: '/wda/apps/state',
    mode: 'S',
    handler: (context) => {
      const bundleId = requireString(context, 'bundleId');
      return unlessNotInstalled(() => context.phone.appState(bundleId), 1);
    },
  },
  {
    method: 'GET',
    pattern: '/wda/apps/list',
    mode: 'S',
    handler: (context) => {
      const app = context.phone.activeApp();
      return [{ pid: app.pid, bundleId: app.bundleId }];
    },
  },
  { method: 'GET', pattern: '/wda/activeAppInfo', mode: 'B', handler: activeAppInfo },
];

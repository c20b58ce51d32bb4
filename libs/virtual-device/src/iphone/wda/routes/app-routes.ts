import { PhoneError, type LaunchInfo } from '../../model';
import type { Route, RouteContext } from '../router';
import { WdaError } from '../wda-error';
import { onPhone, optionalNumber, requireString } from './helpers';

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

/** `arguments` and `environment` as WDA reads them from a launch request or the session's capabilities. */
export function launchInfoOf(args: unknown, env: unknown): LaunchInfo {
  const environment: Record<string, string> = {};
  if (typeof env === 'object' && env !== null && !Array.isArray(env)) {
    for (const [key, value] of Object.entries(env)) environment[key] = String(value);
  }
  return { arguments: Array.isArray(args) ? args.map(String) : [], environment };
}

/**
 * `XCUIApplication.launch` with the request's arguments and environment: a running app is started afresh
 * (its process gets them). Without either, the app is launched or brought to the front as it is.
 */
function launch(context: RouteContext) {
  const bundleId = requireString(context, 'bundleId');
  const args = context.body['arguments'];
  const env = context.body['environment'];
  const info = args === undefined && env === undefined ? undefined : launchInfoOf(args, env);
  onPhone(() => context.phone.launchApp(bundleId, info), {
    app_not_installed: () => new WdaError('invalid argument', unknownAppMessage(bundleId)),
  });
  return null;
}

function activeAppInfo(context: RouteContext) {
  const app = context.phone.activeApp();
  const launched = context.phone.launchInfo(app.bundleId);
  return { pid: app.pid, bundleId: app.bundleId, name: app.name, processArguments: { args: launched.arguments, env: launched.environment } };
}

/**
 * `fb_deactivateWithDuration:` — home, wait `duration` seconds (default 3), then the app comes back
 * (FBCustomCommands.m, XCUIApplication+FBHelpers.m). WDA runs one command at a time, so the wait holds the
 * agent up, as on a phone.
 */
async function deactivateApp(context: RouteContext) {
  const duration = optionalNumber(context, 'duration') ?? 3;
  const bundleId = context.phone.deactivateApp();
  if (duration > 0) await new Promise((resolve) => setTimeout(resolve, duration * 1000).unref());
  if (bundleId !== null) onPhone(() => context.phone.launchApp(bundleId));
  return null;
}

/** `{latitude, longitude, altitude}` of the simulated position, each null when none is set (FBCustomCommands.m). */
function simulatedLocation(context: RouteContext) {
  const location = context.phone.location();
  return { latitude: location?.latitude ?? null, longitude: location?.longitude ?? null, altitude: location ? (location.altitude ?? 0) : null };
}

function setSimulatedLocation(context: RouteContext) {
  const latitude = optionalNumber(context, 'latitude');
  const longitude = optionalNumber(context, 'longitude');
  if (latitude === undefined || longitude === undefined) throw new WdaError('invalid argument', 'Both latitude and longitude must be provided');
  // CLLocation takes any doubles; the simulator refuses a position off the globe.
  onPhone(() => context.phone.setLocation({ latitude, longitude }), { invalid_argument: (message) => new WdaError('unknown error', message) });
  return null;
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
  { method: 'POST', pattern: '/wda/deactivateApp', mode: 'S', handler: deactivateApp },
  { method: 'GET', pattern: '/wda/simulatedLocation', mode: 'B', handler: simulatedLocation },
  { method: 'POST', pattern: '/wda/simulatedLocation', mode: 'B', handler: setSimulatedLocation },
  {
    method: 'DELETE',
    pattern: '/wda/simulatedLocation',
    mode: 'B',
    handler: (context) => {
      context.phone.setLocation(null);
      return null;
    },
  },
];

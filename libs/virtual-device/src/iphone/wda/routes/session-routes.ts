import { launchInfoOf } from './app-routes';
import { RawResponse, type Route, type RouteContext } from '../router';
import { newSession, parseCapabilities } from '../session';
import { applySettings } from '../settings';
import { WdaError } from '../wda-error';

/** Status, health and the session lifecycle (WDA:Commands/FBSessionCommands.m). */

export const WDA_VERSION = '16.7.0';
const BUILD_TIME = 'Nov 30 2026 12:00:00';

function sessionCapabilities(context: RouteContext) {
  return { device: 'iphone', sdkVersion: context.phone.profile.osVersion };
}

function status(context: RouteContext) {
  const os = context.phone.profile.osVersion;
  return {
    ready: true,
    message: 'WebDriverAgent is ready to accept commands',
    state: 'success',
    os: { name: 'iOS', version: os, sdkVersion: os, testmanagerdVersion: 28 },
    ios: { ip: null, simulatorVersion: os },
    build: { time: BUILD_TIME, productBundleIdentifier: 'com.facebook.WebDriverAgentRunner', version: WDA_VERSION },
    device: 'iphone',
  };
}

const HEALTH_PAGE =
  '<!DOCTYPE html><html><head><title>Health Check</title></head><body><p style="text-align: center">I-AM-ALIVE</p></body></html>';

function createSession(context: RouteContext) {
  const caps = parseCapabilities(context.body);
  const { face, phone } = context;
  face.endSession();
  const session = newSession(caps);
  if (session.bundleId) {
    const bundleId = session.bundleId;
    const cannotLaunch = () =>
      new WdaError(
        'session not created',
        `Cannot launch ${bundleId} application. Make sure the correct bundle identifier has been provided in capabilities and check the device log for possible crash report occurrences`,
      );
    if (!phone.installedApps().some((app) => app.bundleId === bundleId)) throw cannotLaunch();
    try {
      if (caps['forceAppLaunch'] !== false && phone.appState(bundleId) > 1) phone.terminateApp(bundleId);
      // Arguments reach a new process only: an app still running keeps its own.
      phone.launchApp(bundleId, phone.appState(bundleId) > 1 ? undefined : launchInfoOf(caps['arguments'], caps['environment']));
    } catch {
      throw cannotLaunch();
    }
  }
  face.session = session;
  return { sessionId: session.id, capabilities: sessionCapabilities(context) };
}

function deleteSession(context: RouteContext) {
  const session = context.face.session;
  if (session?.bundleId && session.shouldTerminateApp) context.phone.terminateApp(session.bundleId);
  context.face.endSession();
  return null;
}

function settingsOf(context: RouteContext) {
  return { ...(context.session as NonNullable<RouteContext['session']>).settings };
}

function updateSettings(context: RouteContext) {
  const update = context.body['settings'];
  if (typeof update !== 'object' || update === null || Array.isArray(update)) {
    throw new WdaError('invalid argument', "'settings' is mandatory and must be an object");
  }
  applySettings((context.session as NonNullable<RouteContext['session']>).settings, update as Record<string, unknown>);
  return settingsOf(context);
}

export const sessionRoutes: Route[] = [
  { method: 'GET', pattern: '/status', mode: 'N', handler: status },
  { method: 'GET', pattern: '/health', mode: 'N', handler: () => new RawResponse(200, 'text/html;charset=UTF-8', HEALTH_PAGE) },
  { method: 'GET', pattern: '/wda/healthcheck', mode: 'N', handler: () => null },
  { method: 'POST', pattern: '/session', mode: 'N', handler: createSession },
  { method: 'GET', pattern: '', mode: 'S', handler: (context) => ({ sessionId: context.session?.id, capabilities: sessionCapabilities(context) }) },
  { method: 'DELETE', pattern: '', mode: 'S', handler: deleteSession },
  { method: 'GET', pattern: '/appium/settings', mode: 'S', handler: settingsOf },
  { method: 'POST', pattern: '/appium/settings', mode: 'S', handler: updateSettings },
  { method: 'POST', pattern: '/timeouts', mode: 'S', handler: () => null },
];

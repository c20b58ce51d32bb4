import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS, applySettings, type Settings } from './settings';
import { WdaError } from './wda-error';

/** The single WDA session (WDA:Routing/FBSession.m) and capability parsing (WDA:Utilities/FBCapabilities.m). */

export interface Session {
  id: string;
  /** The app the session launched with the `bundleId` cap, if any. */
  bundleId?: string;
  shouldTerminateApp: boolean;
  settings: Settings;
}

/** W3C standard capabilities: these must not carry the `appium:` prefix. */
const STANDARD_CAPS = new Set([
  'browserName', 'browserVersion', 'platformName', 'acceptInsecureCerts', 'pageLoadStrategy', 'proxy', 'setWindowRect',
  'timeouts', 'strictFileInteractability', 'unhandledPromptBehavior', 'webSocketUrl',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripPrefixes(caps: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(caps)) {
    const colon = key.indexOf(':');
    const name = colon >= 0 && key.slice(0, colon) === 'appium' ? key.slice(colon + 1) : key;
    if (name !== key && STANDARD_CAPS.has(name)) {
      throw new WdaError('session not created', `The capability name '${key}' should not be prefixed, because it is a standard W3C capability`);
    }
    result[name] = value;
  }
  return result;
}

/** Merges alwaysMatch with the first firstMatch entry, prefixes stripped. */
export function parseCapabilities(body: Record<string, unknown>): Record<string, unknown> {
  const capabilities = body['capabilities'];
  if (!isRecord(capabilities)) {
    throw new WdaError('session not created', "'capabilities' is mandatory to create a new session");
  }
  const alwaysMatch = isRecord(capabilities['alwaysMatch']) ? capabilities['alwaysMatch'] : {};
  const firstMatchList = Array.isArray(capabilities['firstMatch']) ? capabilities['firstMatch'] : [];
  const firstMatch = isRecord(firstMatchList[0]) ? firstMatchList[0] : {};
  return { ...stripPrefixes(alwaysMatch), ...stripPrefixes(firstMatch) };
}

export function newSession(caps: Record<string, unknown>): Session {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const fromCaps: Record<string, unknown> = {};
  for (const key of ['shouldUseCompactResponses', 'elementResponseAttributes', 'defaultAlertAction', 'maxTypingFrequency', 'waitForIdleTimeout'] as const) {
    if (caps[key] !== undefined) fromCaps[key] = caps[key];
  }
  applySettings(settings, fromCaps);
  return {
    id: randomUUID().toUpperCase(),
    bundleId: typeof caps['bundleId'] === 'string' && caps['bundleId'] !== '' ? caps['bundleId'] : undefined,
    shouldTerminateApp: caps['shouldTerminateApp'] !== false,
    settings,
  };
}

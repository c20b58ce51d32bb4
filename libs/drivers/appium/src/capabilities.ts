import { ApexError, invalidInput } from '@apex/errors';
import type { Platform } from '@apex/port';
import { z } from 'zod';

/** W3C standard capability names: the only ones sent without a vendor prefix. */
const W3C_CAPABILITIES = new Set([
  'browserName',
  'browserVersion',
  'platformName',
  'acceptInsecureCerts',
  'pageLoadStrategy',
  'proxy',
  'setWindowRect',
  'timeouts',
  'strictFileInteractability',
  'unhandledPromptBehavior',
  'webSocketUrl',
  'userAgent',
]);

const DEFAULT_AUTOMATION: Record<Platform, string> = { ios: 'XCUITest', android: 'UiAutomator2' };

export const CapabilitiesSchema = z.record(z.string().min(1), z.unknown());

/** The platform a set of capabilities asks for (`platformName`, case-insensitive). */
export function platformOf(capabilities: Record<string, unknown>): Platform | undefined {
  const name = capabilities.platformName;
  if (typeof name !== 'string') return undefined;
  const lower = name.toLowerCase();
  return lower === 'ios' ? 'ios' : lower === 'android' ? 'android' : undefined;
}

/**
 * The `capabilities` of `POST /session`: everything in `alwaysMatch`, non-standard names given the `appium:`
 * vendor prefix when they have none, and the platform's automation engine unless one is named.
 */
export function sessionCapabilities(
  capabilities: Record<string, unknown>,
  platform: Platform,
): { alwaysMatch: Record<string, unknown>; firstMatch: Record<string, unknown>[] } {
  const alwaysMatch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(capabilities)) {
    alwaysMatch[W3C_CAPABILITIES.has(name) || name.includes(':') ? name : `appium:${name}`] = value;
  }
  alwaysMatch.platformName ??= platform === 'ios' ? 'iOS' : 'Android';
  alwaysMatch['appium:automationName'] ??= DEFAULT_AUTOMATION[platform];
  return { alwaysMatch, firstMatch: [{}] };
}

/** Validates the capabilities given to the driver and finds its platform. */
export function checkedCapabilities(capabilities: unknown): { capabilities: Record<string, unknown>; platform: Platform } {
  const parsed = CapabilitiesSchema.safeParse(capabilities);
  if (!parsed.success) throw invalidInput(parsed.error.issues, 'device capabilities');
  const platform = platformOf(parsed.data);
  if (!platform) {
    throw new ApexError('invalid_argument', 'The device capabilities must name the platform: "platformName" is "iOS" or "Android".', {
      hint: 'Add "platformName": "iOS" (or "Android") to the capabilities of the device entry.',
    });
  }
  return { capabilities: parsed.data, platform };
}

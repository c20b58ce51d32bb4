import type { AppRef, BatteryState, DriverStatus } from '@apex/port';

/** UIDeviceBatteryState, by its raw value. */
const BATTERY_STATES: BatteryState['state'][] = ['unknown', 'unplugged', 'charging', 'full'];

export interface AgentStatusReplies {
  /** `/wda/activeAppInfo` (Appium: `mobile: activeAppInfo`): `{bundleId, name, pid, processArguments}`. */
  activeApp: unknown;
  /** `/wda/batteryInfo` (Appium: `mobile: batteryInfo`): `{level: 0..1 or -1, state: 0..3}`. */
  battery: unknown;
  /** `/wda/locked` (Appium: `mobile: isLocked`): a boolean. */
  locked: unknown;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function nonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The app in front from the agent's `activeAppInfo` reply; undefined when it names none. */
export function foregroundAppOf(activeApp: unknown): AppRef | undefined {
  const app = asRecord(activeApp);
  const bundleId = nonEmptyText(app?.bundleId);
  if (!bundleId) return undefined;
  const foreground: AppRef = { appId: bundleId };
  const appName = nonEmptyText(app?.name);
  if (appName) foreground.name = appName;
  return foreground;
}

/**
 * The status fields the on-device agent reports the same way to both iOS drivers (Appium's XCUITest driver
 * passes these replies through unchanged). A missing or unreadable reply leaves its field out.
 */
export function agentStatusFields(replies: AgentStatusReplies): Pick<DriverStatus, 'foregroundApp' | 'battery' | 'locked'> {
  const fields: Pick<DriverStatus, 'foregroundApp' | 'battery' | 'locked'> = {};
  const foreground = foregroundAppOf(replies.activeApp);
  if (foreground) fields.foregroundApp = foreground;
  const battery = asRecord(replies.battery);
  if (typeof battery?.level === 'number' && battery.level >= 0) {
    const stateIndex = typeof battery.state === 'number' ? battery.state : 0;
    fields.battery = { level: Math.min(1, battery.level), state: BATTERY_STATES[stateIndex] ?? 'unknown' };
  }
  if (typeof replies.locked === 'boolean') fields.locked = replies.locked;
  return fields;
}

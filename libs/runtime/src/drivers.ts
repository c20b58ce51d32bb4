import type { DeviceRegistration } from '@apex/hub';
import { createAppiumDriver } from '@apex/driver-appium';
import { createWdaDriver } from '@apex/driver-wda';
import type { DeviceConfig } from './config';

const DEFAULT_ACTION_MS = 15_000;
const DEFAULT_SLOW_ACTION_MS = 30_000;
const DEFAULT_CONNECT_MS = 3_000;

/**
 * The one place that names concrete drivers: a device entry of the configuration → a hub registration.
 * The driver's own request bounds sit just inside the hub's action limits, so a slow device surfaces as
 * the driver's `device_timeout` and the hub's limit is the safety net.
 */
export function registrationFor(device: DeviceConfig): DeviceRegistration {
  const actionMs = device.timeouts?.actionMs ?? DEFAULT_ACTION_MS;
  const slowMs = Math.max(device.timeouts?.slowActionMs ?? DEFAULT_SLOW_ACTION_MS, actionMs);
  switch (device.driver) {
    case 'wda': {
      return {
        id: device.id,
        name: device.name ?? device.id,
        actionTimeoutMs: actionMs,
        slowActionTimeoutMs: slowMs,
        driver: createWdaDriver({
          deviceId: device.id,
          url: device.url,
          requestTimeoutMs: actionMs,
          slowRequestTimeoutMs: slowMs,
          connectTimeoutMs: device.timeouts?.connectMs ?? DEFAULT_CONNECT_MS,
        }),
      };
    }
    case 'appium': {
      return {
        id: device.id,
        name: device.name ?? device.id,
        actionTimeoutMs: actionMs,
        slowActionTimeoutMs: slowMs,
        driver: createAppiumDriver({
          deviceId: device.id,
          serverUrl: device.serverUrl,
          capabilities: device.capabilities,
          requestTimeoutMs: actionMs,
          slowRequestTimeoutMs: slowMs,
          connectTimeoutMs: device.timeouts?.connectMs ?? DEFAULT_CONNECT_MS,
          sessionStartTimeoutMs: device.timeouts?.sessionStartMs,
        }),
      };
    }
  }
}

/** Where a device is reached: the phone's own automation server, or the automation server in front of it. */
export function addressOf(device: DeviceConfig): string {
  return device.driver === 'appium' ? device.serverUrl : device.url;
}

/**
 * What identifies the phone for the ownership lock. A wda entry: its URL. An appium entry in front of an
 * agent that already runs (`appium:webDriverAgentUrl`): that agent's URL, so the same phone configured with
 * either driver is one lock. Otherwise the server plus the phone's udid (one server can drive several phones).
 */
export function lockTargetOf(device: DeviceConfig): { url: string; phone?: string } {
  if (device.driver === 'wda') return { url: device.url };
  const caps = device.capabilities;
  const agentUrl = caps['appium:webDriverAgentUrl'] ?? caps.webDriverAgentUrl;
  if (typeof agentUrl === 'string' && URL.canParse(agentUrl)) return { url: agentUrl };
  const udid = caps['appium:udid'] ?? caps.udid;
  return { url: device.serverUrl, phone: typeof udid === 'string' && udid ? udid : device.id };
}

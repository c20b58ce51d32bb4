import type { DeviceRegistration } from '@apex/hub';
import { createAdbDriver } from '@apex/driver-adb';
import { createAppiumDriver } from '@apex/driver-appium';
import { createWdaDriver, type IosDiagnosticsSource } from '@apex/driver-wda';
import { DEFAULT_ADB_SERVER, type AdbDeviceConfig, type DeviceConfig, type WdaDeviceConfig } from './config';
import { redactedUrl, resolveEndpoint } from './credentials';

/**
 * The one place that names concrete drivers: a device entry of the configuration → a hub registration.
 * The action limits go to the hub, which owns them (and aborts a driver call that outlives them); a driver
 * gets only its connect bound. Limits left out of the entry take the defaults of TIMEOUT_DEFAULTS.
 */
export function registrationFor(device: DeviceConfig, env: NodeJS.ProcessEnv = process.env, host: HostTools = {}): DeviceRegistration {
  const limits = {
    id: device.id,
    name: device.name ?? device.id,
    actionTimeoutMs: device.timeouts?.actionMs,
    slowActionTimeoutMs: device.timeouts?.slowActionMs,
  };
  const connectTimeoutMs = device.timeouts?.connectMs;
  switch (device.driver) {
    case 'wda':
      return { ...limits, driver: createWdaDriver({ deviceId: device.id, url: device.url, mjpegUrl: mjpegUrlOf(device), connectTimeoutMs, diagnostics: host.iosDiagnostics }) };
    case 'appium': {
      // A device cloud's credentials leave the address here and travel only in the Authorization header.
      const server = resolveEndpoint(device.serverUrl, device, env);
      return {
        ...limits,
        driver: createAppiumDriver({
          deviceId: device.id,
          serverUrl: server.url,
          authorization: server.authorization,
          capabilities: device.capabilities,
          connectTimeoutMs,
          sessionStartTimeoutMs: device.timeouts?.sessionStartMs,
          mjpegUrl: device.mjpegUrl,
        }),
      };
    }
    case 'adb':
      return {
        ...limits,
        driver: createAdbDriver({
          deviceId: device.id,
          server: hostPort(device.adbServer ?? DEFAULT_ADB_SERVER),
          device: device.host !== undefined ? { host: device.host } : { serial: device.serial as string },
          connectTimeoutMs,
        }),
      };
  }
}

/** What the host knows of a device beyond its entry (the embedded iPhone's log and crash reports). */
export interface HostTools {
  iosDiagnostics?: IosDiagnosticsSource;
}

/** `HOST:PORT` (validated by the config schema) → its parts; `[::1]:5037` → host `::1`. */
export function hostPort(value: string): { host: string; port: number } {
  const colon = value.lastIndexOf(':');
  return { host: value.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(colon + 1)) };
}

/** The adb server an adb entry goes through. */
function adbServerOf(device: AdbDeviceConfig): string {
  return device.adbServer ?? DEFAULT_ADB_SERVER;
}

/** The screen stream's address of a wda entry: `mjpegUrl`, or `mjpegPort` on the automation server's host; none unless configured. */
export function mjpegUrlOf(device: WdaDeviceConfig): string | undefined {
  if (device.mjpegUrl !== undefined) return device.mjpegUrl;
  if (device.mjpegPort === undefined) return undefined;
  const url = new URL(device.url);
  return `http://${url.host.replace(/:\d+$/, '')}:${device.mjpegPort}`;
}

/** Where a device is reached: the phone's own automation server, or the automation server in front of it (without credentials). */
export function addressOf(device: DeviceConfig): string {
  switch (device.driver) {
    case 'appium':
      return redactedUrl(device.serverUrl);
    case 'adb':
      return `adb://${adbServerOf(device)}/${device.host ?? device.serial}`;
    default:
      return device.url;
  }
}

/**
 * What identifies the phone for the ownership lock. A wda entry: its URL. An appium entry in front of an
 * agent that already runs (`appium:webDriverAgentUrl`): that agent's URL, so the same phone configured with
 * either driver is one lock. Otherwise the server plus the phone's udid (one server can drive several phones).
 */
export function lockTargetOf(device: DeviceConfig): { url: string; phone?: string } {
  if (device.driver === 'wda') return { url: device.url };
  // An adbd over TCP is the phone itself; a serial names one phone behind its adb server.
  if (device.driver === 'adb') return device.host !== undefined ? { url: `http://${device.host}` } : { url: `http://${adbServerOf(device)}`, phone: device.serial };
  const caps = device.capabilities;
  const agentUrl = caps['appium:webDriverAgentUrl'] ?? caps.webDriverAgentUrl;
  if (typeof agentUrl === 'string' && URL.canParse(agentUrl)) return { url: agentUrl };
  const udid = caps['appium:udid'] ?? caps.udid;
  return { url: device.serverUrl, phone: typeof udid === 'string' && udid ? udid : device.id };
}

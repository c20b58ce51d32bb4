import { ApexError, echoName, invalidArgument } from '@apex/errors';
import type { CrashReport, CrashSummary, LogEntry, LogQuery } from '@apex/port';
import type { DeviceHub, OptionalAbility } from '../hub/device-hub';
import { runWith } from './abilities';

/** Why a device has no log or crash reports, as a model can act on it. */
function cannotRead(hub: DeviceHub, deviceId: string, ability: OptionalAbility, what: string): void {
  if (hub.supports(deviceId, ability)) return;
  const ios = hub.summary(deviceId).platform === 'ios';
  throw new ApexError('unsupported_operation', `Device ${deviceId} cannot ${what}.`, {
    hint: ios
      ? "An iPhone's log and crash reports are read through its host's tools (a simulator on its Mac, or a USB connection Apex is set up to use); this device has neither configured."
      : 'This connection to the device does not offer it.',
  });
}

/**
 * Reads the device's log (since `query.sinceMs`, oldest first) on its queue, handing each line to `onEntry`
 * until it returns false or the device has sent what it holds. The caller keeps what it needs: nothing here
 * holds more than one line.
 */
export async function readLogs(hub: DeviceHub, deviceId: string, query: LogQuery, onEntry: (entry: LogEntry) => boolean): Promise<void> {
  cannotRead(hub, deviceId, 'logs', 'read its log');
  await runWith(
    hub,
    deviceId,
    ['logs'],
    'read its log',
    async (driver, signal) => {
      for await (const entry of driver.logs(query, signal)) if (!onEntry(entry)) return;
    },
    { slow: true },
  );
}

export async function listCrashReports(hub: DeviceHub, deviceId: string, query: { app?: string; sinceMs?: number }): Promise<CrashSummary[]> {
  cannotRead(hub, deviceId, 'crashReports', 'list its crash reports');
  return runWith(hub, deviceId, ['crashReports'], 'list its crash reports', (driver, signal) => driver.crashReports(query, signal), { slow: true });
}

/** One crash report; an id the device does not know is `invalid_argument`. */
export async function getCrashReport(hub: DeviceHub, deviceId: string, id: string): Promise<CrashReport> {
  cannotRead(hub, deviceId, 'crashReport', 'read its crash reports');
  const report = await runWith(hub, deviceId, ['crashReport'], 'read a crash report', (driver, signal) => driver.crashReport(id, signal), { slow: true });
  if (!report) {
    throw invalidArgument(`Device ${deviceId} has no crash report "${echoName(id)}".`, [{ path: 'id', message: 'no such report' }], 'list_crashes names the reports the device keeps; use one of their ids.');
  }
  return report;
}

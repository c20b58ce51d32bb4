import type { DeviceStatus, DeviceSummary } from '@apex/hub';
import { toPublicError, type PublicError } from '@apex/errors';
import { runOperation } from '@apex/capability';
import type { Runtime } from '@apex/runtime';
import type { CommandImpl } from '../cli';
import { startCommandRuntime } from './command-runtime';

/** One row of `apex devices`: the summary, the status when the device answered, or why it did not. */
export interface DeviceReport extends DeviceSummary {
  status?: Omit<DeviceStatus, keyof DeviceSummary>;
  error?: PublicError;
}

/** The devices as the `list_devices` operation reports them: the same catalog every face runs. */
async function listDevices(runtime: Runtime): Promise<DeviceSummary[]> {
  return (await runOperation(runtime, 'list_devices', {}, runtime.operations)).output.devices as DeviceSummary[];
}

async function reportOf(runtime: Runtime, summary: DeviceSummary): Promise<DeviceReport> {
  try {
    // A phone being prepared is listed as it is now (its phase), not waited for.
    const { output } = await runOperation(runtime, 'device_status', { device: summary.id }, runtime.operations, { deviceWaitMs: 0 });
    const { id: _id, name: _name, platform: _platform, state, ...status } = output as unknown as DeviceStatus;
    return { ...summary, state, status };
  } catch (error) {
    return { ...runtime.hub.summary(summary.id), error: toPublicError(error) };
  }
}

function details(report: DeviceReport): string {
  if (report.error) return report.error.message;
  const status = report.status;
  if (!status) return '';
  const parts = [
    [status.deviceName, status.model].filter(Boolean).join(', '),
    status.osVersion ? `${report.platform === 'ios' ? 'iOS' : 'Android'} ${status.osVersion}` : '',
    `${status.screen.width}×${status.screen.height} pt @${status.screen.scale}x`,
    status.foregroundApp ? `showing ${status.foregroundApp.name ?? status.foregroundApp.appId}` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

function table(reports: DeviceReport[]): string {
  const rows = [['ID', 'NAME', 'STATE', 'DETAILS'], ...reports.map((r) => [r.id, r.name, r.state, details(r)])];
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((row) => row[col].length)));
  return rows.map((row) => row.map((cell, col) => (col < 3 ? cell.padEnd(widths[col]) : cell)).join('  ').trimEnd()).join('\n');
}

/**
 * `apex devices`: lists the configured devices (or the embedded virtual phones) with their state — with
 * `--discover`, the phones found on this machine too (`--no-virtual`: without the virtual ones) — and
 * model/OS for those that answer. Exit 0 when the list was produced (offline devices included); 2 for a
 * bad configuration (a usage problem, listing the bad fields); 1 when the runtime cannot start (e.g. a
 * data directory that cannot be written). A device another Apex process holds is listed `busy`, naming it.
 */
export const devicesCommand: CommandImpl = {
  options: { config: { type: 'string' }, json: { type: 'boolean' }, discover: { type: 'boolean' }, 'no-virtual': { type: 'boolean' } },
  async run(values) {
    const discover = values.discover === true;
    const runtime = await startCommandRuntime('devices', values, { discover, virtual: values['no-virtual'] !== true });
    if (typeof runtime === 'number') return runtime;
    try {
      // Each kind of phone looked for once (iPhones found are listed while they are prepared).
      if (discover) await runtime.discovery?.looked();
      const reports = await Promise.all((await listDevices(runtime)).map((summary) => reportOf(runtime, summary)));
      process.stdout.write(values.json ? `${JSON.stringify({ devices: reports }, null, 2)}\n` : `${table(reports)}\n`);
      return 0;
    } finally {
      await runtime.close();
    }
  },
};

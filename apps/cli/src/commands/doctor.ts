import { isApexError } from '@apex/errors';
import { loadConfig, runDoctor, type ApexConfig, type DoctorLine } from '@apex/runtime';
import type { CommandImpl } from '../cli';

function render(line: DoctorLine): string {
  const head = `${line.ok ? 'ok  ' : 'MISS'}  ${line.item}: ${line.detail}`;
  return line.fix ? `${head}\n      → ${line.fix}` : head;
}

/**
 * `apex doctor`: one line per thing Apex needs (Node, the data directory, Xcode and the automation agent for
 * iPhones, the USB device service, the adb server for Android, each phone found) with the fix for what is
 * missing. Exit 0 only when at least one phone is usable; 1 when none is; 2 for a bad configuration.
 */
export const doctorCommand: CommandImpl = {
  options: { config: { type: 'string' }, json: { type: 'boolean' } },
  async run(values) {
    let config: ApexConfig | undefined;
    const configPath = typeof values.config === 'string' ? values.config : process.env.APEX_CONFIG;
    if (configPath) {
      try {
        config = await loadConfig(configPath);
      } catch (error) {
        if (!isApexError(error)) throw error;
        process.stderr.write(`apex doctor: ${error.message}\n`);
        return 2;
      }
    }
    const report = await runDoctor({ config, env: process.env, signal: AbortSignal.timeout(60_000) });
    if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      process.stdout.write(`${report.lines.map(render).join('\n')}\n`);
      process.stdout.write(report.usableDevices > 0 ? `\n${report.usableDevices} phone(s) ready.\n` : '\nNo phone is ready yet: see the fixes above (apex serve still runs the virtual phones).\n');
    }
    return report.usableDevices > 0 ? 0 : 1;
  },
};

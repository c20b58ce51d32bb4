import { parseArgs } from 'node:util';
import { isApexError } from '@apex/errors';
import { EMULATOR_USAGE, emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal } from '@apex/virtual-device';

/** `nx serve wda-emulator`: a virtual iPhone that speaks WebDriverAgent, on port 8100 unless told otherwise. */

const USAGE = `Usage: wda-emulator ${EMULATOR_USAGE}   (port 8100 unless given)`;

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        profile: { type: 'string' },
        appearance: { type: 'string' },
        'allow-remote': { type: 'boolean' },
        faults: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    process.stderr.write(`wda-emulator: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values['help']) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  try {
    const options = emulatorOptionsFromArgs(
      {
        port: text('port'),
        host: text('host'),
        profile: text('profile'),
        appearance: text('appearance'),
        allowRemote: values['allow-remote'] === true,
        faults: values['faults'] === true,
      },
      8100,
    );
    return await runVirtualIPhoneUntilSignal(options);
  } catch (error) {
    if (!isApexError(error)) throw error;
    process.stderr.write(`wda-emulator: ${error.message}${error.hint ? ` ${error.hint}` : ''}\n${USAGE}\n`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wda-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

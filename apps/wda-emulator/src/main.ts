import { parseArgs } from 'node:util';
import { isApexError } from '@apex/errors';
import { EMULATOR_FLAGS, EMULATOR_USAGE, emulatorArgsFromFlags, emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal } from '@apex/virtual-device';

/** `nx serve wda-emulator`: a virtual iPhone that speaks WebDriverAgent, on port 8100 unless told otherwise. */

const USAGE = `Usage: wda-emulator ${EMULATOR_USAGE}   (port 8100 unless given)`;

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: { ...EMULATOR_FLAGS, help: { type: 'boolean', short: 'h' } },
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
  try {
    const options = emulatorOptionsFromArgs(emulatorArgsFromFlags(values), 8100);
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

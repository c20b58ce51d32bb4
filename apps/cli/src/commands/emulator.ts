import { isApexError } from '@apex/errors';
import { emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal, type VirtualIPhoneOptions } from '@apex/virtual-device';
import { UsageError, type CommandImpl } from '../cli';

/** WDA's default port. */
const DEFAULT_PORT = 8100;

/** `apex emulator`: a virtual iPhone that speaks WebDriverAgent, until Ctrl-C. */
export const emulatorCommand: CommandImpl = {
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    profile: { type: 'string' },
    appearance: { type: 'string' },
    'allow-remote': { type: 'boolean' },
    faults: { type: 'boolean' },
  },
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
    let options: VirtualIPhoneOptions;
    try {
      options = emulatorOptionsFromArgs(
        {
          port: text('port'),
          host: text('host'),
          profile: text('profile'),
          appearance: text('appearance'),
          allowRemote: values['allow-remote'] === true,
          faults: values['faults'] === true,
        },
        DEFAULT_PORT,
      );
    } catch (error) {
      if (isApexError(error)) throw new UsageError(error.hint ? `${error.message} ${error.hint}` : error.message);
      throw error;
    }
    return runVirtualIPhoneUntilSignal(options);
  },
};

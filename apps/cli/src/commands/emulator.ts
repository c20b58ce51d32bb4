import { isApexError } from '@apex/errors';
import { EMULATOR_FLAGS, emulatorArgsFromFlags, emulatorOptionsFromArgs, runVirtualIPhoneUntilSignal, type VirtualIPhoneOptions } from '@apex/virtual-device';
import { UsageError, type CommandImpl } from '../cli';

/** The port a real iPhone's automation server listens on by default. */
const DEFAULT_PORT = 8100;

/** `apex emulator`: a virtual iPhone on a local port, until Ctrl-C. */
export const emulatorCommand: CommandImpl = {
  options: EMULATOR_FLAGS,
  async run(values, positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    let options: VirtualIPhoneOptions;
    try {
      options = emulatorOptionsFromArgs(emulatorArgsFromFlags(values), DEFAULT_PORT);
    } catch (error) {
      if (isApexError(error)) throw new UsageError(error.hint ? `${error.message} ${error.hint}` : error.message);
      throw error;
    }
    return runVirtualIPhoneUntilSignal(options);
  },
};

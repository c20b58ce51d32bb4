import { constants } from 'node:os';

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

export interface StopSignals {
  /** The first SIGINT or SIGTERM: time to shut down cleanly. */
  readonly first: Promise<NodeJS.Signals>;
  /** The shutdown began another way (say the MCP client went away): the next signal exits at once. */
  stopping(): void;
}

/**
 * Graceful shutdown for the long-running commands. The first SIGINT/SIGTERM resolves `first`; any signal
 * after that ends the process at once with the shell's code for death by that signal (128 + its number:
 * 130 for SIGINT, 143 for SIGTERM), for an operator who will not wait for requests and tasks to finish.
 */
export function listenForStopSignals(log: (line: string) => void): StopSignals {
  let stopping = false;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) {
      stopping = true;
      resolveFirst(signal);
      return;
    }
    log(`Received ${signal} again; exiting now.`);
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    first,
    stopping: () => {
      stopping = true;
    },
  };
}

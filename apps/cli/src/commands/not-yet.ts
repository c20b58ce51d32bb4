import type { Command } from '../cli';

/** A subcommand whose issue has not landed yet: it says so plainly instead of pretending. */
export function notYetAvailable(name: string, summary: string, usage: string): Command {
  return {
    name,
    summary,
    usage,
    options: {},
    async run() {
      process.stderr.write(`apex ${name}: not available yet in this build (${summary.toLowerCase()}).\n`);
      return 1;
    },
  };
}

import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for a bad command line; the CLI prints it with the usage and exits with code 2. */
export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** What `apex --help` shows of a command. */
export interface CommandInfo {
  name: string;
  summary: string;
  usage: string;
  /** More lines for `apex <command> --help` only. */
  details?: string;
}

/** A command's implementation; its module is loaded only when the command runs. */
export interface CommandImpl {
  options: Options;
  run(values: ParsedValues, positionals: string[]): Promise<number>;
}

export interface Command extends CommandInfo {
  load(): CommandImpl;
}

export function parseCommandArgs(command: CommandImpl, argv: string[]) {
  try {
    return parseArgs({ args: argv, options: command.options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function formatHelp(commands: CommandInfo[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: apex <command> [options]',
    '',
    'Apex lets AI agents and people control mobile devices over MCP and REST.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `apex <command> --help` for the options of a command, `apex --version` for the version.',
  ].join('\n');
}

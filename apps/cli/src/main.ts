import { COMMANDS } from './commands';
import { formatHelp, parseCommandArgs, UsageError } from './cli';

/** The CLI's version: its package.json (the installed package's version is copied from it at build time). */
function cliVersion(): string {
  return (require('../package.json') as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${formatHelp(COMMANDS)}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) throw new UsageError(`unknown command '${name}'`);
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(`Usage: ${command.usage}\n${command.summary}.\n${command.details ? `\n${command.details}\n` : ''}`);
      return 0;
    }
    const implementation = command.load();
    const { values, positionals } = parseCommandArgs(implementation, rest);
    return await implementation.run(values, positionals);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`apex: ${error.message}\n\n${command ? `Usage: ${command.usage}` : formatHelp(COMMANDS)}\n`);
      return 2;
    }
    throw error;
  }
}

/** Entry point of the `apex` bin: runs the command and sets the exit code. */
export function runCli(argv: string[] = process.argv.slice(2)): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`apex: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

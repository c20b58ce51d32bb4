/**
 * `npm run bench [-- --quick] [-- --only <section>[,<section>…]]`: every benchmark on virtual iPhones (and the virtual Android phone) over
 * loopback; prints a table per section and writes bench-results/latest.json plus a timestamped copy.
 */
import { runBench, UsageError } from './runner';
import { SECTIONS } from './sections';

function parseArgs(argv: readonly string[]): { quick: boolean; only: string[] } {
  const only: string[] = [];
  let quick = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--quick') quick = true;
    else if (arg === '--only') only.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg.startsWith('--only=')) only.push(...arg.slice('--only='.length).split(',').filter(Boolean));
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`usage: npm run bench -- [--quick] [--only <section>[,…]]\nsections:\n${SECTIONS.map((s) => `  ${s.name.padEnd(16)} ${s.description}`).join('\n')}\n`);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${arg} (try --help)`);
  }
  return { quick, only };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const report = await runBench({ sections: SECTIONS, ...args, command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ') });
  if (Object.keys(report.failures).length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`bench: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

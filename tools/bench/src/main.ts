/**
 * `npm run bench [-- --quick] [-- --only <section>[,<section>…]] [-- --out <dir>]`: every benchmark on virtual
 * iPhones (and the virtual Android phone) over loopback; prints a table per section and writes latest.json, a
 * timestamped copy and latest.md to bench-results/ (or `--out`). `npm run bench` runs this file bundled as the
 * package is (scripts/bench.mjs); `npm run bench:source` runs it through tsx.
 */
import { runBench, UsageError, type BenchBuild } from './runner';
import { SECTIONS } from './sections';

/** Set to 'bundled' in the bundle scripts/bench.mjs makes (an esbuild define); unset when run from source. */
const BUILD: BenchBuild = process.env.APEX_BENCH_BUILD === 'bundled' ? 'bundled' : 'source';
const COMMAND = BUILD === 'bundled' ? 'npm run bench' : 'npm run bench:source';

function parseArgs(argv: readonly string[]): { quick: boolean; only: string[]; outDir?: string } {
  const only: string[] = [];
  let quick = false;
  let outDir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--quick') quick = true;
    else if (arg === '--only') only.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg.startsWith('--only=')) only.push(...arg.slice('--only='.length).split(',').filter(Boolean));
    else if (arg === '--out') {
      outDir = argv[++i];
      if (!outDir) throw new UsageError('--out needs a directory');
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`usage: ${COMMAND} -- [--quick] [--only <section>[,…]] [--out <dir>]\nsections:\n${SECTIONS.map((s) => `  ${s.name.padEnd(16)} ${s.description}`).join('\n')}\n`);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${arg} (try --help)`);
  }
  return { quick, only, outDir };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const command = [COMMAND, ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');
  const report = await runBench({ sections: SECTIONS, ...args, build: BUILD, command });
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

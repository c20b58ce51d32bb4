import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeMachine, loadAverage, type MachineDescription } from './support/machine';
import type { Cell, Section, SectionResult } from './support/section';

/** What ran: the bundle the package's build makes (`npm run bench`) or the TypeScript sources through tsx. */
export type BenchBuild = 'bundled' | 'source';

const BUILD_WORDS: Record<BenchBuild, string> = {
  bundled: 'bundled as the package is',
  source: 'TypeScript sources through tsx: not the code that ships',
};

export interface BenchOptions {
  sections: readonly Section[];
  quick?: boolean;
  /** Section names to run (default all). */
  only?: readonly string[];
  /** Where latest.json and the timestamped copy go (default bench-results/ at the repo root). */
  outDir?: string;
  log?: (line: string) => void;
  /** The command line recorded in the JSON. */
  command?: string;
  /** Default 'source'. */
  build?: BenchBuild;
}

export interface BenchReport {
  command: string;
  build: BenchBuild;
  quick: boolean;
  startedAt: string;
  finishedAt: string;
  machine: MachineDescription;
  sections: Record<string, SectionResult>;
  /** Sections that threw, with the message. */
  failures: Record<string, string>;
  files: string[];
}

/** A wrong command line: the runner says what is wrong, without a stack. */
export class UsageError extends Error {}

export const DEFAULT_OUT_DIR = path.resolve(__dirname, '../../../bench-results');

/** Runs the chosen sections one after the other, prints a table per section, writes the JSON. */
export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const quick = options.quick ?? false;
  const unknown = (options.only ?? []).filter((name) => !options.sections.some((s) => s.name === name));
  if (unknown.length) throw new UsageError(`unknown section(s): ${unknown.join(', ')}; known: ${options.sections.map((s) => s.name).join(', ')}`);
  const chosen = options.only?.length ? options.sections.filter((s) => options.only?.includes(s.name)) : options.sections;
  const machine = describeMachine();
  const report: BenchReport = {
    command: options.command ?? 'npm run bench',
    build: options.build ?? 'source',
    quick,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    machine,
    sections: {},
    failures: {},
    files: [],
  };
  log(`Apex benchmarks${quick ? ' (quick: smoke figures, not for quoting)' : ''}, ${BUILD_WORDS[report.build]} — ${machine.cpus} × ${machine.model}, ` +
    `${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB, node ${machine.node}, load average ${machine.loadAverageStart.join(' / ')}`);
  for (const section of chosen) {
    log(`\n== ${section.name}: ${section.description}`);
    const started = performance.now();
    try {
      const result = await section.run({ quick, log });
      result.durationMs = Math.round(performance.now() - started);
      report.sections[section.name] = result;
      for (const line of renderTable(result)) log(line);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      report.failures[section.name] = message;
      log(`section ${section.name} FAILED: ${message}`);
    }
  }
  machine.loadAverageEnd = loadAverage();
  report.finishedAt = new Date().toISOString();
  const outDir = options.outDir ?? DEFAULT_OUT_DIR;
  mkdirSync(outDir, { recursive: true });
  const stamped = path.join(outDir, `bench-${report.startedAt.replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`);
  const latest = path.join(outDir, 'latest.json');
  const markdown = path.join(outDir, 'latest.md');
  report.files = [latest, stamped, markdown];
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(latest, json);
  writeFileSync(stamped, json);
  writeFileSync(markdown, renderMarkdown(report));
  log(`\nload average at the end ${machine.loadAverageEnd.join(' / ')}; results in ${latest}, ${stamped} and ${markdown}`);
  return report;
}

function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isInteger(cell) ? String(cell) : cell.toFixed(Math.abs(cell) >= 100 ? 0 : Math.abs(cell) >= 10 ? 1 : 2);
  return String(cell);
}

/** A plain-text table of the section, then its targets and notes. */
export function renderTable(result: SectionResult): string[] {
  const cells = result.rows.map((row) => result.columns.map((c) => text(row[c])));
  const widths = result.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (values: string[]) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  ');
  return [
    result.title,
    line(result.columns),
    ...cells.map(line),
    ...result.targets.map((t) => `target ${t.figure}: ${t.target} → ${t.value} ${t.unit} ${t.met ? 'met' : 'NOT MET'}`),
    ...result.notes.map((n) => `note: ${n}`),
  ];
}

/** The whole report as Markdown tables (what BENCHMARKS.md quotes). */
export function renderMarkdown(report: BenchReport): string {
  const m = report.machine;
  const out = [
    `Run ${report.startedAt} → ${report.finishedAt}: \`${report.command}\` (${BUILD_WORDS[report.build]})`,
    '',
    `Machine: ${m.cpus} × ${m.model}, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, node ${m.node} (${m.platform}/${m.arch}); ` +
      `load average ${m.loadAverageStart.join(' / ')} at the start, ${(m.loadAverageEnd ?? []).join(' / ')} at the end.`,
  ];
  for (const [name, result] of Object.entries(report.sections)) {
    const cell = (c: Cell | undefined) => text(c).replace(/\|/g, '\\|');
    out.push('', `### ${name}: ${result.title}`, '', `| ${result.columns.join(' | ')} |`, `|${result.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const row of result.rows) out.push(`| ${result.columns.map((c) => cell(row[c])).join(' | ')} |`);
    if (result.targets.length) out.push('');
    for (const t of result.targets) out.push(`- target ${t.figure}: ${t.target} → **${t.value} ${t.unit}** ${t.met ? 'met' : '**NOT MET**'}`);
    if (result.notes.length) out.push('');
    for (const n of result.notes) out.push(`- ${n}`);
  }
  for (const [name, message] of Object.entries(report.failures)) out.push('', `### ${name}: FAILED`, '', '```', message, '```');
  return `${out.join('\n')}\n`;
}

/** A figure's target from the issues, and whether this run met it. */
export interface Target {
  figure: string;
  target: string;
  value: number;
  unit: string;
  met: boolean;
}

export type Cell = string | number | boolean | null;

/** What one section of the benchmark reports: a table (rows keyed by its columns), targets and notes. */
export interface SectionResult {
  title: string;
  columns: string[];
  rows: Record<string, Cell>[];
  targets: Target[];
  notes: string[];
  /** Figures that are not a table row (memory, counts), for the JSON. */
  data?: Record<string, unknown>;
  durationMs?: number;
}

export interface SectionOptions {
  /** Few iterations: a smoke run that checks everything works, not figures to quote. */
  quick: boolean;
  log: (line: string) => void;
}

export interface Section {
  name: string;
  description: string;
  run(options: SectionOptions): Promise<SectionResult>;
}

export function target(figure: string, text: string, value: number, unit: string, met: boolean): Target {
  return { figure, target: text, value: Math.round(value * 1000) / 1000, unit, met };
}

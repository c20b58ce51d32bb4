import * as os from 'node:os';

export interface MachineDescription {
  cpus: number;
  model: string;
  memoryBytes: number;
  node: string;
  platform: string;
  arch: string;
  /** 1, 5 and 15 minute load averages when the run started and when it ended. */
  loadAverageStart: number[];
  loadAverageEnd?: number[];
}

export function describeMachine(): MachineDescription {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: os.platform(),
    arch: os.arch(),
    loadAverageStart: loadAverage(),
  };
}

export function loadAverage(): number[] {
  return os.loadavg().map((n) => Math.round(n * 100) / 100);
}

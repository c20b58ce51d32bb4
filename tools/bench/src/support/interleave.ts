import { timed, yieldToLoop } from './stats';

/** One way of doing the same thing (raw HTTP, the driver, MCP, …). */
export interface Arm {
  name: string;
  run: () => Promise<unknown>;
}

export interface InterleaveOptions {
  blocks: number;
  perBlock: number;
  /** Unmeasured calls at the start of each block (session re-creation, caches, JIT). Default 1. */
  warmup?: number;
  /** Runs, unmeasured, before every call of every arm (e.g. change the screen so nothing is cached). */
  before?: () => void | Promise<void>;
}

/**
 * Round-robin blocks: every arm runs `perBlock` measured calls per block, and the order of the arms rotates
 * from block to block, so drift and bursts of load on the machine hit every arm alike.
 */
export async function interleave(arms: readonly Arm[], options: InterleaveOptions): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(arms.map((a) => [a.name, []]));
  const warmup = options.warmup ?? 1;
  for (let block = 0; block < options.blocks; block += 1) {
    const order = arms.map((_, i) => arms[(i + block) % arms.length] as Arm);
    for (const arm of order) {
      for (let i = 0; i < warmup + options.perBlock; i += 1) {
        await yieldToLoop();
        await options.before?.();
        const ms = await timed(arm.run);
        if (i >= warmup) samples[arm.name]?.push(ms);
      }
    }
  }
  return samples;
}

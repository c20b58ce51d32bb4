import type { OperationResult } from '@apex/capability';

/** How the agent runs one action, beyond its arguments. */
export interface RunOptions {
  /** With `observe: "describe"`: whether the description of the screen after it reads the pixels too. */
  observeWithOcr?: boolean;
}

/** One device as the agent sees it: run a catalog operation by name, the device argument implied. */
export interface DeviceSession {
  readonly deviceId: string;
  run(operation: string, args: Record<string, unknown>, options?: RunOptions): Promise<OperationResult>;
  /** Whether the operation only reads (no settling needed after it). */
  isReadOnly(operation: string): boolean;
  /** Whether the operation takes `observe` and can answer the settled screen after it (`observed.screen`). */
  observes?(operation: string): boolean;
}

import type { OperationResult } from '@apex/operations';

/** One device as the agent sees it: run a catalog operation by name, the device argument implied. */
export interface DeviceSession {
  readonly deviceId: string;
  run(operation: string, args: Record<string, unknown>): Promise<OperationResult>;
  /** Whether the operation only reads (no settling needed after it). */
  isReadOnly(operation: string): boolean;
}

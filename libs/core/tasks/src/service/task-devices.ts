import { DEVICE_OPERATIONS, findOperation, runOperation, type AnyOperation, type OperationContext, type OperationResult } from '@apex/capability';
import type { RunOptions } from '../agent/device-session';

/** How the task service reaches devices: by id, through the operations catalog. */
export interface TaskDevices {
  run(deviceId: string, operation: string, args: Record<string, unknown>, options?: RunOptions): Promise<OperationResult>;
  isReadOnly(operation: string): boolean;
  /** Whether the operation is an action (takes `observe` and answers `observed`). */
  observes(operation: string): boolean;
}

/** The catalog's device operations over the runtime's hub and perception. */
export function catalogDevices(context: OperationContext, operations: readonly AnyOperation[] = DEVICE_OPERATIONS): TaskDevices {
  return {
    run: (deviceId, operation, args, options) =>
      runOperation(context, operation, { ...args, device: deviceId }, operations, { observeWithOcr: options?.observeWithOcr }),
    isReadOnly: (operation) => findOperation(operation, operations)?.annotations.readOnlyHint ?? false,
    observes: (operation) => findOperation(operation, operations)?.acts === true,
  };
}

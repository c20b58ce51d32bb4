import { DEVICE_OPERATIONS, type AnyOperation, type OperationContext } from '@apex/operations';
import { TASK_OPERATIONS, type TaskOperationContext } from './task-operations';

/** The whole catalog when a task service is there: the device operations, then the task operations. */
export const ALL_OPERATIONS: readonly AnyOperation[] = [...DEVICE_OPERATIONS, ...TASK_OPERATIONS];

export function hasTaskService(ctx: OperationContext): ctx is TaskOperationContext {
  const tasks = (ctx as Partial<TaskOperationContext>).tasks;
  return tasks !== undefined && typeof tasks.start === 'function';
}

/** What a face serves for a context: the task operations join when the context carries a task service. */
export function operationsFor(ctx: OperationContext): readonly AnyOperation[] {
  return hasTaskService(ctx) ? ALL_OPERATIONS : DEVICE_OPERATIONS;
}

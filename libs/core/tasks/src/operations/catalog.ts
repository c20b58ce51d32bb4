import { DEVICE_OPERATIONS, type AnyOperation } from '@apex/capability';
import { TASK_OPERATIONS } from './task-operations';

/** The whole catalog when a task service is there: the device operations, then the task operations. */
export const ALL_OPERATIONS: readonly AnyOperation[] = [...DEVICE_OPERATIONS, ...TASK_OPERATIONS];

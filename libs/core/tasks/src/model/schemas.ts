import { z } from 'zod';
import { withoutControlCharacters } from '@apex/capability';
import { TASK_LIMITS, TASK_STATUSES } from './task';

/** The zod forms of the task operations' fields: their bounds, written once (the operations' schemas compose them). */

export const taskStatusSchema = z.enum(TASK_STATUSES);

export const goalSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(TASK_LIMITS.goalMaxChars, `must be at most ${TASK_LIMITS.goalMaxChars} characters`)
  .describe('e.g. "open Settings then turn on Airplane Mode"');

export const maxStepsSchema = z
  .number()
  .int()
  .min(TASK_LIMITS.maxStepsMin)
  .max(TASK_LIMITS.maxStepsMax)
  .describe(`Most agent actions (${TASK_LIMITS.maxStepsMin}..${TASK_LIMITS.maxStepsMax}, default ${TASK_LIMITS.defaultMaxSteps})`);

export const plannerNameSchema = z
  .string()
  .min(1)
  .max(40)
  .describe('"offline" (built in, simple goals), or "openai"/"anthropic" when configured');

export const taskIdSchema = withoutControlCharacters(z.string().min(1).max(100))
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "_" or "-"')
  .describe('The id start_task returned');

export const timeoutMsSchema = z
  .number()
  .int()
  .min(TASK_LIMITS.timeoutMinMs)
  .max(TASK_LIMITS.timeoutMaxMs)
  .describe(`Wall-clock limit in ms (default ${TASK_LIMITS.defaultTimeoutMs})`);

export const recordSchema = z
  .boolean()
  .optional()
  .describe('record the screen while it runs; the task links the MP4 (a failed one in its error too)');

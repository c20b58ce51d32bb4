import { z } from 'zod';
import { ERROR_CODE_LIST, type ErrorCode } from '@apex/errors';
import { withoutControlCharacters } from '@apex/operations';
import { FAILURE_REASONS, STEP_OUTCOMES, TASK_LIMITS, TASK_STATUSES } from './task';

/** The zod forms of the task model: the output schemas of the task operations and the REST routes. */

export const taskStatusSchema = z.enum(TASK_STATUSES);

const errorCodeSchema = z.enum(ERROR_CODE_LIST as [ErrorCode, ...ErrorCode[]]);

export const taskErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  reason: z.enum(FAILURE_REASONS).describe('Why the task stopped, e.g. step_limit, timeout, infeasible, interrupted'),
});

export const taskUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

export const taskStepSchema = z.object({
  index: z.number().int().nonnegative(),
  observation: z.string().describe('What the screen showed when the action was chosen'),
  action: z.object({
    operation: z.string().describe('The catalog operation that ran'),
    arguments: z.record(z.string(), z.unknown()),
  }),
  outcome: z.object({
    status: z.enum(STEP_OUTCOMES),
    detail: z.string(),
    code: errorCodeSchema.optional(),
  }),
  durationMs: z.number().nonnegative(),
  screenshotRef: z.string().optional(),
});

const taskFields = {
  id: z.string(),
  deviceId: z.string(),
  goal: z.string(),
  status: taskStatusSchema,
  planner: z.string(),
  maxSteps: z.number().int(),
  timeoutMs: z.number().int(),
  createdAt: z.string().describe('ISO 8601'),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  result: z.string().optional().describe('A short answer or summary, once succeeded'),
  error: taskErrorSchema.optional(),
  usage: taskUsageSchema.optional().describe('Model tokens, when a model planned the task'),
};

export const taskSchema = z.object({ ...taskFields, steps: z.array(taskStepSchema) });

export const taskSummarySchema = z.object({ ...taskFields, stepCount: z.number().int().nonnegative() });

export const goalSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(TASK_LIMITS.goalMaxChars, `must be at most ${TASK_LIMITS.goalMaxChars} characters`)
  .describe('What to achieve on the device, in plain words, e.g. "open Settings then turn on Airplane Mode"');

export const maxStepsSchema = z
  .number()
  .int()
  .min(TASK_LIMITS.maxStepsMin)
  .max(TASK_LIMITS.maxStepsMax)
  .describe(`Most actions the agent may take (${TASK_LIMITS.maxStepsMin}..${TASK_LIMITS.maxStepsMax}, default ${TASK_LIMITS.defaultMaxSteps})`);

export const plannerNameSchema = z
  .string()
  .min(1)
  .max(40)
  .describe('Who plans the steps: "offline" (built in, simple goals), "openai" or "anthropic" (when configured)');

export const taskIdSchema = withoutControlCharacters(z.string().min(1).max(100)).describe('The id start_task returned');

export const timeoutMsSchema = z
  .number()
  .int()
  .min(TASK_LIMITS.timeoutMinMs)
  .max(TASK_LIMITS.timeoutMaxMs)
  .describe(`Wall-clock limit in ms (default ${TASK_LIMITS.defaultTimeoutMs})`);

/** What TaskService.start accepts (the REST body; the MCP tool names the device `device`). */
export const startTaskInputSchema = z.strictObject({
  deviceId: z.string().min(1).max(128).optional().describe('Device id; optional if only one device'),
  goal: goalSchema,
  maxSteps: maxStepsSchema.optional(),
  planner: plannerNameSchema.optional(),
  timeoutMs: timeoutMsSchema.optional(),
});
export type StartTaskInput = z.input<typeof startTaskInputSchema>;

export const listTasksInputSchema = z.strictObject({
  status: taskStatusSchema.optional(),
  deviceId: z.string().min(1).max(128).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
export type ListTasksInput = z.input<typeof listTasksInputSchema>;

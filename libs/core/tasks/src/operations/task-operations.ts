import { z } from 'zod';
import { defineOperation, deviceField, type AnyOperation, type OperationContext } from '@apex/capability';
import type { Task } from '../model/task';
import { goalSchema, maxStepsSchema, plannerNameSchema, recordSchema, taskIdSchema, taskStatusSchema } from '../model/schemas';
import type { TaskService } from '../service/task-service';
import { exportFlowOperation, runFlowOperation } from './flow-operations';

const recordingLinkOut = z.object({ id: z.string(), url: z.string().describe('GET it from the Apex REST server: an MP4') });
/* Output schemas here are plain shapes (strings rather than enums): the model types say what the values are. */
const errorOut = z.object({
  code: z.string(),
  message: z.string(),
  reason: z.string().describe('e.g. step_limit, timeout, infeasible, interrupted'),
  screenshotStep: z.number().int().optional().describe('the step whose screenshot shows the screen it failed on'),
  logs: z
    .array(z.object({ time: z.string(), level: z.string(), process: z.string(), message: z.string() }))
    .optional()
    .describe('the device log of the last 30 s before it failed'),
  recording: recordingLinkOut.optional().describe('the screen recording up to the failure (record: true)'),
});
const taskSummaryOut = z.object({
  id: z.string(),
  device: z.string(),
  goal: z.string(),
  status: taskStatusSchema,
  planner: z.string(),
  createdAt: z.string(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  result: z.string().optional(),
  answer: z
    .object({ subject: z.string(), value: z.union([z.string(), z.number(), z.boolean()]), source: z.string() })
    .optional()
    .describe("a question goal's answer as a value"),
  error: errorOut.optional(),
  recording: recordingLinkOut.extend({ seconds: z.number() }).optional().describe('the screen recording of the run (record: true)'),
  stepCount: z.number(),
});
const stepOut = z.object({
  index: z.number(),
  observation: z.string(),
  action: z.object({ operation: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  outcome: z.object({ status: z.string(), detail: z.string(), code: z.string().optional() }),
  durationMs: z.number(),
  screenshotRef: z.string().optional(),
});
const taskOut = taskSummaryOut.omit({ stepCount: true }).extend({
  maxSteps: z.number(),
  timeoutMs: z.number(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  suggestedPatch: z.array(z.object({ step: z.number(), was: z.string(), now: z.string() })).optional().describe('heal: agent fixes to the flow'),
  steps: z.array(stepOut),
});

/** The context the task operations run in: the device context plus the runtime's task service. */
export type TaskOperationContext = OperationContext & { tasks: TaskService };

const startTaskOperation = defineOperation({
  name: 'start_task',
  title: 'Start task',
  description:
    'Starts an agent task: a goal in plain words, pursued step by step on the device. Returns its id at once; poll get_task until it ends. One task at a time per device, in order.',
  input: z.strictObject({
    device: deviceField,
    goal: goalSchema,
    maxSteps: maxStepsSchema.optional(),
    planner: plannerNameSchema.optional(),
    record: recordSchema,
  }),
  output: z.object({ taskId: z.string(), status: taskStatusSchema }),
  // A goal may change anything on the device, and an LLM planner talks to a model endpoint.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  toolset: 'tasks',
  handler: async (ctx: TaskOperationContext, { device, goal, maxSteps, planner, record }) => {
    const task = await ctx.tasks.start({ deviceId: device, goal, maxSteps, planner, record });
    return { taskId: task.id, status: task.status };
  },
  summarize: ({ taskId, status }) => `Task ${taskId} is ${status}; poll get_task for progress.`,
});

const getTaskOperation = defineOperation({
  name: 'get_task',
  title: 'Get task',
  description:
    "An agent task: status, steps (observation, operation, arguments, outcome), result (a question's `answer`) or error with its reason, heal's `suggestedPatch`, token usage.",
  input: z.strictObject({ taskId: taskIdSchema }),
  output: taskOut,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'tasks',
  handler: async (ctx: TaskOperationContext, { taskId }) => asClientSees(await ctx.tasks.get(taskId)),
  summarize: (task) => summarizeTask(task),
});

const listTasksOperation = defineOperation({
  name: 'list_tasks',
  title: 'List tasks',
  description: 'Lists agent tasks, newest first, without their steps; filter by status and device id.',
  input: z.strictObject({
    status: taskStatusSchema.optional(),
    device: z.string().min(1).max(128).optional().describe('Only tasks of this device'),
  }),
  output: z.object({ tasks: z.array(taskSummaryOut) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'tasks',
  handler: async (ctx: TaskOperationContext, { status, device }) => ({
    tasks: (await ctx.tasks.list({ status, deviceId: device })).map(asClientSees),
  }),
  summarize: ({ tasks }) =>
    tasks.length === 0 ? 'No tasks.' : `${tasks.length} task(s): ${tasks.map((t) => summarizeTask(t)).join(' | ')}`,
});

const cancelTaskOperation = defineOperation({
  name: 'cancel_task',
  title: 'Cancel task',
  description:
    'Cancels an agent task: a queued one at once, a running one after its current step; a finished one stays.',
  input: z.strictObject({ taskId: taskIdSchema }),
  output: z.object({ taskId: z.string(), status: taskStatusSchema, cancelRequested: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'tasks',
  handler: async (ctx: TaskOperationContext, { taskId }) => {
    const before = await ctx.tasks.get(taskId);
    const task = await ctx.tasks.cancel(taskId);
    return { taskId: task.id, status: task.status, cancelRequested: before.status === 'queued' || before.status === 'running' };
  },
  summarize: ({ taskId, status, cancelRequested }) =>
    !cancelRequested ? `Task ${taskId} had already finished (${status}).` : status === 'cancelled' ? `Task ${taskId} is cancelled.` : `Task ${taskId} will stop at its next step.`,
});

/** The task operations, registered by the faces next to the device operations. */
export const TASK_OPERATIONS: readonly AnyOperation[] = [startTaskOperation, getTaskOperation, listTasksOperation, cancelTaskOperation, runFlowOperation, exportFlowOperation];

/** A task as a client sees it: the service's `deviceId` is the catalog's `device`. */
function asClientSees<T extends { deviceId: string }>({ deviceId, ...rest }: T): Omit<T, 'deviceId'> & { device: string } {
  return { ...rest, device: deviceId };
}

type TaskLine = Pick<Task, 'id' | 'status' | 'goal' | 'result'> & { error?: { reason: string; message: string } };

function summarizeTask(task: TaskLine): string {
  const tail = task.status === 'succeeded' ? `: ${task.result ?? ''}` : task.error ? `: ${task.error.reason} — ${task.error.message}` : '';
  return `${task.id} ${task.status} "${task.goal.length > 60 ? `${task.goal.slice(0, 59)}…` : task.goal}"${tail}`;
}

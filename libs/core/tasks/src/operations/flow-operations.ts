import { z } from 'zod';
import { invalidArgument } from '@apex/errors';
import { defineOperation, deviceField, secretField } from '@apex/capability';
import { FLOW_LIMITS, type Flow } from '../flows/flow-schema';
import { exportFlow } from '../flows/export-flow';
import { MAX_FLOW_YAML_BYTES, parseFlowObject, parseFlowYaml } from '../flows/parse-flow';
import { TASK_LIMITS } from '../model/task';
import { plannerNameSchema, recordSchema, taskIdSchema, taskStatusSchema } from '../model/schemas';
import type { TaskOperationContext } from './task-operations';

const varsSchema = z
  .record(z.string().min(1).max(40), z.string().max(FLOW_LIMITS.maxTextLength))
  .refine((vars) => Object.keys(vars).length <= FLOW_LIMITS.maxVars, `at most ${FLOW_LIMITS.maxVars} variables`)
  .describe('Values of the flow\'s ${name} variables');

export const runFlowOperation = defineOperation({
  name: 'run_flow',
  title: 'Run flow',
  description:
    'Replays a flow (YAML steps like tap: General) without a model as a task; poll get_task.',
  input: z
    .strictObject({
      device: deviceField,
      yaml: z.string().min(1).max(MAX_FLOW_YAML_BYTES).optional().describe('The flow file'),
      flow: z.record(z.string(), z.unknown()).optional().describe('or as an object'),
      // Values a flow fills in (passwords too): never logged.
      vars: secretField(varsSchema.optional()),
      healPlanner: plannerNameSchema.optional().describe('planner for heal: agent'),
      record: recordSchema,
    })
    .refine((input) => (input.yaml === undefined) !== (input.flow === undefined), { message: 'give exactly one of yaml and flow', path: ['yaml'] }),
  output: z.object({ taskId: z.string(), status: taskStatusSchema }),
  // A flow may change anything on the device; it talks to no model.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  toolset: 'flows',
  handler: async (ctx: TaskOperationContext, { device, yaml, flow, vars, healPlanner, record }) => {
    const parsed = yaml !== undefined ? await parseFlowYaml(yaml, vars) : await parseFlowObject(flow, vars);
    const task = await ctx.tasks.start({ deviceId: device, goal: `Run flow "${parsed.name}"`, flow: parsed, maxSteps: stepBudget(parsed), healPlanner, record });
    return { taskId: task.id, status: task.status };
  },
  summarize: ({ taskId, status }) => `Flow task ${taskId} is ${status}; poll get_task for progress.`,
});

export const exportFlowOperation = defineOperation({
  name: 'export_flow',
  title: 'Export flow',
  description: 'A finished task as a flow to replay without a model (run_flow): its actions as steps, elements by text, label or role; `variables`: typed text to give at replay.',
  input: z.strictObject({ taskId: taskIdSchema }),
  output: z.object({
    yaml: z.string(),
    flow: z.record(z.string(), z.unknown()),
    variables: z.array(z.string()).describe('to give at replay: typed text'),
    skipped: z.array(z.string()),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'flows',
  handler: async (ctx: TaskOperationContext, { taskId }) => exportFlow(await ctx.tasks.get(taskId)),
  summarize: ({ yaml, skipped }) => `${yaml}${skipped.length > 0 ? `\nLeft out: ${skipped.join('; ')}` : ''}`,
});

/** The task's step limit: one per action, each scroll_until's swipes, and one more to see the end reached. */
function stepBudget(flow: Flow): number {
  let budget = flow.app === undefined ? 1 : 2;
  for (const step of flow.steps) {
    budget += step.kind === 'scroll_until' ? (step.args.maxSwipes ?? FLOW_LIMITS.defaultScrollSwipes) : step.kind === 'type' && step.args.into ? 2 : 1;
  }
  if (budget > TASK_LIMITS.maxStepsMax) {
    throw invalidArgument(`The flow may take ${budget} actions; a task takes at most ${TASK_LIMITS.maxStepsMax}.`, undefined, 'Split it into shorter flows, or lower the maxSwipes of its scroll_until steps.');
  }
  return budget;
}

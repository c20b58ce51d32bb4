import { inputJsonSchema, type AnyOperation, type JsonSchemaObject } from '@apex/capability';

/** A tool offered to a model: a catalog operation (minus its device argument) or a control tool. */
export interface AgentTool {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

export const FINISH_TOOL = 'finish_task';
export const GIVE_UP_TOOL = 'give_up';

/**
 * Operations a task's model is not offered: the task already names its device, and the planners send the model
 * text only (an image result would reach it as a line saying an image was taken).
 */
const HIDDEN = new Set(['list_devices', 'take_screenshot']);

const CONTROL_TOOLS: AgentTool[] = [
  {
    name: FINISH_TOOL,
    description: 'Call when the goal is reached (check the screen first). `result`: a short answer or summary for the user.',
    parameters: {
      type: 'object',
      properties: { result: { type: 'string', maxLength: 2000, description: 'Short answer or summary' } },
      required: ['result'],
      additionalProperties: false,
    },
  },
  {
    name: GIVE_UP_TOOL,
    description: 'Call when the goal cannot be reached on this device; `reason` says why in one sentence.',
    parameters: {
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 2000 } },
      required: ['reason'],
      additionalProperties: false,
    },
  },
];

/**
 * The tools a model plans with: each catalog operation's own name, description and input schema (converted
 * from its zod schema), without the `device` argument, plus finish_task and give_up.
 */
export function agentTools(operations: readonly AnyOperation[]): AgentTool[] {
  const tools = operations
    .filter((op) => !HIDDEN.has(op.name))
    .map((op) => ({ name: op.name, description: op.description, parameters: withoutDevice(inputJsonSchema(op)) }));
  return [...tools, ...CONTROL_TOOLS];
}

function withoutDevice(schema: JsonSchemaObject): JsonSchemaObject {
  const properties = { ...(schema.properties ?? {}) };
  delete properties['device'];
  const required = (schema.required ?? []).filter((name) => name !== 'device');
  const result: JsonSchemaObject = { ...schema, type: 'object', properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  return result;
}

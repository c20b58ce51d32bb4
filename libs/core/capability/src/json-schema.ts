import { z } from 'zod';
import type { AnyOperation } from './define-operation';

export type JsonSchemaObject = { type: 'object'; properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

/**
 * The JSON Schema (draft-07, as MCP clients validate with) of an operation's input: what a caller may send
 * (defaults make fields optional). No `$schema` key: it only costs tokens in a tool list.
 */
export function inputJsonSchema(op: Pick<AnyOperation, 'input'>): JsonSchemaObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(op.input, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return rest as JsonSchemaObject;
}

/**
 * The output schema a tool list advertises: `{type: 'object'}` (every result is structured content), without
 * its fields. Issue 33 holds `tools/list` to 40 K characters with every toolset; an outline of each result's
 * top-level fields (type, enum, description) cost about 7 K of it, on every connection, for little: the model
 * APIs hosts call take a tool's name, description and input schema only (Anthropic's `input_schema`, OpenAI's
 * `parameters`), so an output schema reaches a model only if its host copies it in; every result shows its
 * fields (`structuredContent` and text); a tool's description says what it returns where that guides the next
 * call (a recording's `url`, a flow's `variables`, a task's `answer`); REST's OpenAPI document has each whole
 * schema. Still a true schema of every result: a client validating `structuredContent` against it accepts all.
 */
export function toolOutputSchema(): JsonSchemaObject {
  return { type: 'object' };
}

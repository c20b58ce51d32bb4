import { z } from 'zod';
import type { AnyOperation } from './define-operation';

export type JsonSchemaObject = { type: 'object'; properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

/**
 * The JSON Schema (draft-07, as MCP clients validate with) of a zod object: `io: 'input'` for what a caller
 * may send (defaults make fields optional), `'output'` for what a result holds. No `$schema` key: it only
 * costs tokens in a tool list.
 */
function toJsonSchemaObject(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io }) as Record<string, unknown>;
  return rest as JsonSchemaObject;
}

export function inputJsonSchema(op: AnyOperation): JsonSchemaObject {
  return toJsonSchemaObject(op.input, 'input');
}

/**
 * Output schemas are advertised without `additionalProperties: false`: results are built by our own code
 * (extra keys are stripped before sending), so the flag would only cost tokens.
 */
export function outputJsonSchema(op: AnyOperation): JsonSchemaObject {
  return withoutClosedObjects(toJsonSchemaObject(op.output, 'output')) as JsonSchemaObject;
}

function withoutClosedObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClosedObjects);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === false) continue;
    result[key] = withoutClosedObjects(child);
  }
  return result;
}

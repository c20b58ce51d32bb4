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

export function inputJsonSchema(op: Pick<AnyOperation, 'input'>): JsonSchemaObject {
  return toJsonSchemaObject(op.input, 'input');
}

/**
 * The output schema a tool list advertises: each top-level field of the result with its type (and enum or
 * description), nested shapes only as `object`/`array`. A tool list is read on every connection, and
 * nested result shapes were a third of it; the result itself (text and structured content) shows them, and
 * REST's OpenAPI document carries the whole schema. Still a true schema of every result: a client that
 * validates `structuredContent` against it accepts every result Apex sends.
 */
export function outputJsonSchema(op: Pick<AnyOperation, 'output'>): JsonSchemaObject {
  const full = toJsonSchemaObject(op.output, 'output');
  const properties = Object.fromEntries(Object.entries(full.properties ?? {}).map(([name, field]) => [name, fieldOutline(field)]));
  return { type: 'object', properties, ...(full.required ? { required: full.required } : {}) };
}

const OUTLINE_KEYS = ['type', 'enum', 'const', 'description'] as const;

function fieldOutline(field: unknown): Record<string, unknown> {
  const schema = field as Record<string, unknown>;
  const outline: Record<string, unknown> = {};
  for (const key of OUTLINE_KEYS) if (schema[key] !== undefined) outline[key] = schema[key];
  if (Array.isArray(schema.anyOf)) outline.anyOf = schema.anyOf.map(fieldOutline);
  return outline;
}

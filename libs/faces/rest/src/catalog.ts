import { z } from 'zod';
import type { AnyOperation } from '@apex/capability';
import { deprecatedFieldSchema, deprecatedFieldsOf } from './deprecated-fields';

/**
 * The operation's input as a client sends it, for the documentation: its fields without those the path
 * fills, plus the deprecated names still accepted. (Built from the shape, since `.omit` refuses refined
 * objects; whole-object refinements are still enforced, by `runOperation`.)
 */
export function clientInputSchema(operation: AnyOperation, fromPath: readonly string[]): z.ZodObject {
  const fields = Object.entries(operation.input.shape).filter(([name]) => !fromPath.includes(name));
  const deprecated = deprecatedFieldsOf(operation.input)
    .filter(([, current]) => !fromPath.includes(current))
    .map(([old, current]) => [old, deprecatedFieldSchema(operation.input.shape[current] as z.ZodType, current)]);
  const schema = z.strictObject(Object.fromEntries([...fields, ...deprecated]) as z.ZodRawShape);
  return operation.input.description ? schema.describe(operation.input.description) : schema;
}

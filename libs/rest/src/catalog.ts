import { z } from 'zod';
import type { AnyOperation } from '@apex/operations';

/**
 * The operation's input as a client sends it, for the documentation: its fields without those the path
 * fills. (Built from the shape, since `.omit` refuses refined objects; whole-object refinements are still
 * enforced, by `runOperation`.)
 */
export function clientInputSchema(operation: AnyOperation, fromPath: readonly string[]): z.ZodObject {
  const shape = Object.fromEntries(Object.entries(operation.input.shape).filter(([name]) => !fromPath.includes(name)));
  const schema = z.strictObject(shape as z.ZodRawShape);
  return operation.input.description ? schema.describe(operation.input.description) : schema;
}

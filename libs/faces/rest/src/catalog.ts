import { z } from 'zod';
import type { AnyOperation } from '@apex/operations';

/**
 * The operation's input as a client sends it, for the documentation: its fields without those the path
 * fills. (Built from the shape, since `.omit` refuses refined objects; whole-object refinements are still
 * enforced, by `runOperation`.)
 */
export function clientInputSchema(
  operation: AnyOperation,
  fromPath: readonly string[],
  bodyFields: Readonly<Record<string, string>> = {},
): z.ZodObject {
  const clientName = Object.fromEntries(Object.entries(bodyFields).map(([client, field]) => [field, client]));
  const shape = Object.fromEntries(
    Object.entries(operation.input.shape)
      .filter(([name]) => !fromPath.includes(name))
      .map(([name, field]) => [clientName[name] ?? name, field]),
  );
  const schema = z.strictObject(shape as z.ZodRawShape);
  return operation.input.description ? schema.describe(operation.input.description) : schema;
}

import { z } from 'zod';
import { invalidInput } from '@apex/errors';
import { deviceField, type AnyOperation } from '@apex/capability';

/**
 * The schema a path parameter is checked with: the input field it fills, as its operation defines it (so a
 * device id is bounded once, by `deviceField`). A parameter that fills no operation's field is a device id.
 */
export function pathParamSchema(operation: AnyOperation | undefined, field: string): z.ZodType {
  const schema = (operation?.input.shape[field] as z.ZodType | undefined) ?? deviceField;
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

/** The path parameter's text once its field's schema accepts it; a refusal names the parameter, not the field. */
export function checkedPathParam(name: string, text: string, schema: z.ZodType): string {
  const parsed = schema.safeParse(text);
  if (!parsed.success) throw invalidInput(parsed.error.issues.map((issue) => ({ ...issue, path: [name] })), `path parameter ${name}`);
  return text;
}

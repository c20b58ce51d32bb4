import type { z } from 'zod';
import type { AnyOperation } from './define-operation';

/**
 * Input fields that may hold a secret (typed text, a clipboard, a flow's variables): marked where the field is
 * defined, with `secretField`, and never written to a log by any face.
 */
const SECRET_FIELDS = new WeakSet<z.ZodType>();

/** What a log shows instead of a secret. */
export const REDACTED = '[redacted]';

/** Marks an input field as secret. Mark the schema as it sits in the input's shape (after `.optional()`). */
export function secretField<T extends z.ZodType>(schema: T): T {
  SECRET_FIELDS.add(schema);
  return schema;
}

/** Whether the field, or the schema it wraps (optional, default, nullable), is marked secret. */
export function isSecretField(schema: z.ZodType | undefined): boolean {
  for (let at = schema; at !== undefined; at = (at as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def?.innerType) {
    if (SECRET_FIELDS.has(at)) return true;
  }
  return false;
}

/** The names of an operation's secret input fields. */
export function secretFieldsOf(operation: AnyOperation): string[] {
  return Object.entries(operation.input.shape as Record<string, z.ZodType>)
    .filter(([, schema]) => isSecretField(schema))
    .map(([name]) => name);
}

/** An operation's input as a log may show it: each secret field's value replaced by `[redacted]`. */
export function loggableInput(operation: AnyOperation, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...input };
  for (const name of secretFieldsOf(operation)) if (name in shown) shown[name] = REDACTED;
  return shown;
}

/**
 * The names of every secret input field in Apex's catalogs (a spec checks the marks against it), for the
 * loggers' own redaction: the last guard if an input is ever logged without `loggableInput`.
 */
export const SECRET_FIELD_NAMES = ['text', 'vars'] as const;

/** The one list of paths every face's logger (pino `redact`) censors: credentials and secret fields. */
export const LOG_REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  ...SECRET_FIELD_NAMES.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

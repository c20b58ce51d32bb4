import type { z } from 'zod';
import { echoName, firstItems, invalidArgument, listNames, type FieldIssue } from '@apex/errors';

type AnyObjectSchema = z.ZodObject;
type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[] };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema under optional/default/nullable/readonly/pipe wrappers: what a query value must become. */
function baseOf(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    current = inner;
  }
  return current;
}

const NUMBER_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * One query string value turned into what its field expects. Numbers and booleans are converted only when
 * they are written as such; anything else stays a string so that zod reports the field with its own message.
 */
function isNumeric(schema: z.ZodType): boolean {
  const type = defOf(baseOf(schema)).type;
  return type === 'number' || type === 'int' || type === 'bigint';
}

function coerceValue(schema: z.ZodType, value: string): unknown {
  const def = defOf(baseOf(schema));
  const type = def.type;
  if (isNumeric(schema)) return NUMBER_TEXT.test(value) ? Number(value) : value;
  // A field that is a number or something else (get_logs' `since`: ms, or a time): a number when written as one.
  if (type === 'union' && def.options?.some(isNumeric) && NUMBER_TEXT.test(value)) return Number(value);
  if (type === 'boolean') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  return value;
}

/** The fields a client may send: the operation's input minus those the path fills. */
function clientFields(input: AnyObjectSchema, fromPath: readonly string[]): string[] {
  return Object.keys(input.shape).filter((name) => !fromPath.includes(name));
}

/** Unknown or path-owned fields are refused (400) rather than silently dropped; the first few are named. */
export function rejectUnknownFields(
  values: Record<string, unknown>,
  input: AnyObjectSchema,
  fromPath: readonly string[],
  where: 'body' | 'query',
): void {
  const allowed = new Set(clientFields(input, fromPath));
  const unknown = Object.keys(values).filter((name) => !allowed.has(name));
  if (unknown.length === 0) return;
  const issues: FieldIssue[] = firstItems(unknown).shown.map((name) => ({
    path: echoName(name),
    message: fromPath.includes(name) ? 'is given by the path, not the ' + where : 'is not a known field',
  }));
  const known = [...allowed].join(', ') || 'none';
  throw invalidArgument(
    `Unknown ${where} field${unknown.length > 1 ? 's' : ''}: ${listNames(unknown)}.`,
    issues,
    `Known fields: ${known}.`,
  );
}

/**
 * The input of a GET route from its query string: each known field converted to the field's type, an
 * array field from repeated parameters, and a repeated scalar refused.
 */
export function inputFromQuery(
  query: URLSearchParams,
  input: AnyObjectSchema,
  fromPath: readonly string[],
): Record<string, unknown> {
  const names = [...new Set(query.keys())];
  const raw = Object.fromEntries(names.map((name) => [name, true]));
  rejectUnknownFields(raw, input, fromPath, 'query');
  const result: Record<string, unknown> = {};
  for (const name of names) {
    const field = input.shape[name] as z.ZodType;
    const values = query.getAll(name);
    const base = baseOf(field);
    if (defOf(base).type === 'array') {
      const element = defOf(base).element ?? base;
      result[name] = values.map((value) => coerceValue(element, value));
    } else if (values.length > 1) {
      throw invalidArgument(`The query parameter ${name} is given more than once.`, [
        { path: name, message: 'must be given once' },
      ]);
    } else {
      result[name] = coerceValue(field, values[0]);
    }
  }
  return result;
}

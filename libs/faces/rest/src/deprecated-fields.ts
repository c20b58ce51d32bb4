import { z } from 'zod';
import { invalidArgument, type ApexError } from '@apex/errors';

/**
 * Field names REST still accepts for one release, each with the name that replaced it (`scale` was
 * take_screenshot's `points | native`; `scale` now only means pixels per point).
 */
export const DEPRECATED_FIELDS: Readonly<Record<string, string>> = { deviceId: 'device', scale: 'resolution' };

const deprecatedByInput = new WeakMap<z.ZodObject, readonly (readonly [string, string])[]>();

/** The deprecated names an operation's input still answers to: old name → current name (read once per input). */
export function deprecatedFieldsOf(input: z.ZodObject): readonly (readonly [string, string])[] {
  let fields = deprecatedByInput.get(input);
  if (!fields) {
    fields = Object.entries(DEPRECATED_FIELDS).filter(([old, current]) => current in input.shape && !(old in input.shape));
    deprecatedByInput.set(input, fields);
  }
  return fields;
}

/**
 * The values with each deprecated name replaced by its current one (the same object when the input has none);
 * both names at once are refused.
 */
export function withCurrentNames(values: Record<string, unknown>, input: z.ZodObject): Record<string, unknown> {
  const deprecated = deprecatedFieldsOf(input);
  if (deprecated.length === 0) return values;
  const result = { ...values };
  for (const [old, current] of deprecated) {
    if (!(old in result)) continue;
    if (current in result) {
      throw bothNames(old, current);
    }
    result[current] = result[old];
    delete result[old];
  }
  return result;
}

/** A query string with each deprecated parameter name replaced by its current one. */
export function queryWithCurrentNames(query: URLSearchParams, input: z.ZodObject): URLSearchParams {
  const renamed = new Map(deprecatedFieldsOf(input));
  if (![...query.keys()].some((name) => renamed.has(name))) return query;
  for (const [old, current] of renamed) {
    if (query.has(old) && query.has(current)) {
      throw bothNames(old, current);
    }
  }
  return new URLSearchParams([...query].map(([name, value]): [string, string] => [renamed.get(name) ?? name, value]));
}

function bothNames(old: string, current: string): ApexError {
  return invalidArgument(`Give ${current} or its deprecated name ${old}, not both.`, [
    { path: old, message: `is the deprecated name of ${current}` },
  ]);
}

/** The documented field of a deprecated name: the current field's schema, marked deprecated. */
export function deprecatedFieldSchema(field: z.ZodType, current: string): z.ZodType {
  const description = `Deprecated: use ${current}. Accepted for one more release.`;
  // `param` is what zod-to-openapi reads for a query parameter; the rest marks the body property.
  return field.meta({ deprecated: true, description, param: { deprecated: true, description } });
}

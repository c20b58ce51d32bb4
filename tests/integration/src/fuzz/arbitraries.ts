import fc from 'fast-check';
import { inputJsonSchema, type AnyOperation } from '@apex/capability';

/**
 * fast-check arbitraries built from an operation's own input schema (its zod object, as JSON Schema): a valid
 * input first, then mutated into bad input — wrong types, huge and deeply nested JSON, long and unicode
 * strings with lone surrogates, numbers at and past every bound, NaN-like strings, missing and unknown keys.
 * A new operation is fuzzed the day it joins the catalog.
 */

/** The subset of JSON Schema the operations' inputs use. */
export interface FieldSchema {
  type?: 'object' | 'string' | 'number' | 'integer' | 'boolean' | 'array';
  properties?: Record<string, FieldSchema>;
  required?: string[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: FieldSchema;
  /** A field of several kinds (get_logs' `since`: ms back, or a time). */
  anyOf?: FieldSchema[];
}

export interface SizeLimits {
  /** Longest generated string (huge ones are a short unit repeated). */
  maxString: number;
  /** Deepest generated nesting. */
  maxDepth: number;
  /** Most elements or keys in a generated array or object. */
  maxItems: number;
}

/** Sizes for a JSON body (within the 1 MiB limit) and for a query string (within a URL's few KiB). */
export const BODY_SIZES: SizeLimits = { maxString: 120_000, maxDepth: 800, maxItems: 5_000 };
export const QUERY_SIZES: SizeLimits = { maxString: 600, maxDepth: 20, maxItems: 100 };

type ObjectSchema = FieldSchema & { properties: Record<string, FieldSchema> };
const inputSchemas = new WeakMap<AnyOperation, ObjectSchema>();

/** The operation's input as JSON Schema, converted once. */
export function inputSchemaOf(op: AnyOperation): ObjectSchema {
  let schema = inputSchemas.get(op);
  if (!schema) {
    const json = inputJsonSchema(op) as FieldSchema;
    schema = { ...json, properties: json.properties ?? {} };
    inputSchemas.set(op, schema);
  }
  return schema;
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Short texts that are hard on parsers, regexes, encoders and terminals. */
const oddPiece = fc.oneof(
  fc.constantFrom('at (', 'at x (a:1:', '\n    at ', '\u0000', '\u001b[31m', '\r\n', '\u2028', '\u200b', '\u202e', '\ufeff'),
  fc.constantFrom('😀', 'e\u0301', '𝕏', '%00', '../', '"', '\\'),
  loneSurrogate,
  fc.string({ unit: 'grapheme', maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

/** A string of any length up to `max`: usually short, sometimes a pattern repeated to a huge length. */
function anyString(sizes: SizeLimits): fc.Arbitrary<string> {
  const repeated = fc
    .tuple(fc.array(oddPiece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: sizes.maxString }))
    .map(([pieces, length]) => {
      const unit = pieces.join('') || 'x';
      return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    });
  return fc.oneof(
    { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
    { arbitrary: fc.array(oddPiece, { maxLength: 12 }).map((p) => p.join('')), weight: 3 },
    { arbitrary: repeated, weight: 1 },
  );
}

/** `[[[…1…]]]` or `{"a":{"a":…}}` up to `maxDepth` levels. */
function deeplyNested(sizes: SizeLimits): fc.Arbitrary<unknown> {
  return fc.tuple(fc.integer({ min: 2, max: sizes.maxDepth }), fc.boolean()).map(([depth, asArrays]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = asArrays ? [value] : { a: value };
    return value;
  });
}

/** Any JSON value: scalars, odd strings, big arrays and objects, deep nesting. */
export function anyJson(sizes: SizeLimits): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 1e308, -1e308, 5e-324),
    fc.double(),
    anyString(sizes),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: sizes.maxItems }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: Math.min(50, sizes.maxItems) }),
    deeplyNested(sizes),
  );
}

const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '0x10', '0b1', '1_000', ' 1', '1 ', '1,5', '١٢'];
const NOT_QUITE_NUMBERS = [...NAN_LIKE, '+', '-', '.', 'e5', '', 'null', 'true', '01'];

/** A valid value for one field. */
export function validValue(schema: FieldSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1e6), max: Math.floor(schema.maximum ?? 1e6) });
    case 'number': {
      const min = schema.exclusiveMinimum ?? schema.minimum ?? -1e6;
      const max = schema.maximum ?? 1e6;
      return fc
        .double({ min, max, noNaN: true, noDefaultInfinity: true })
        .filter((n) => !(schema.exclusiveMinimum !== undefined && n <= schema.exclusiveMinimum));
    }
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 40, 40);
      if (schema.pattern) {
        const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
        return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
      }
      return fc.string({ minLength, maxLength });
    }
    case 'object':
      return validObject(schema);
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { maxLength: 5 });
    default:
      return fc.constant(null);
  }
}

export function validObject(schema: FieldSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, validValue(field)]));
  const requiredKeys = (schema.required ?? []).filter((name) => name in properties);
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
}

/** The largest double below / the smallest above `n`. */
function nextDown(n: number): number {
  return n - Math.max(Math.abs(n) * Number.EPSILON, Number.MIN_VALUE);
}
function nextUp(n: number): number {
  return n + Math.max(Math.abs(n) * Number.EPSILON, Number.MIN_VALUE);
}

/** Numbers at and past each bound of a numeric field, and what is not quite a number. */
function boundaryNumbers(schema: FieldSchema): fc.Arbitrary<unknown> {
  const bounds = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum].filter(
    (b): b is number => b !== undefined,
  );
  const around = bounds.flatMap((b) => [b, nextDown(b), nextUp(b), b - 1, b + 1, b - 0.5, b + 0.5]);
  return fc.oneof(
    fc.constantFrom(...around, 0, -0, -1, 0.5, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2),
    fc.constantFrom(Number.NaN, Infinity, -Infinity),
    fc.constantFrom(...NOT_QUITE_NUMBERS, ...around.map(String)),
  );
}

/** Strings at and past the length bounds, off the pattern, near an enum value, with odd characters. */
function badStrings(schema: FieldSchema, sizes: SizeLimits): fc.Arbitrary<unknown> {
  const lengths = [schema.minLength, schema.maxLength].filter((n): n is number => n !== undefined);
  const atBounds = lengths.flatMap((n) => [n - 1, n, n + 1]).filter((n) => n >= 0 && n <= sizes.maxString);
  const options: fc.Arbitrary<unknown>[] = [
    anyString(sizes),
    fc.constantFrom(...NAN_LIKE),
    fc
      .tuple(fc.constantFrom(...(atBounds.length ? atBounds : [0])), fc.constantFrom('a', 'é', '😀', '\ud800', ' '))
      .map(([n, c]) => c.repeat(Math.ceil(n / c.length)).slice(0, n)),
  ];
  if (schema.enum) {
    const values = schema.enum.map(String);
    options.push(
      fc.constantFrom(...values).chain((v) =>
        fc.constantFrom(v.toUpperCase(), ` ${v}`, `${v} `, `${v}\u0000`, v.slice(1), `${v}${v}`, `${v}\u0301`),
      ),
    );
  }
  return fc.oneof(...options);
}

/** A value of another JSON type than the field's. */
function wrongType(schema: FieldSchema, sizes: SizeLimits): fc.Arbitrary<unknown> {
  const isType = (v: unknown): boolean => {
    switch (schema.type) {
      case 'string':
        return typeof v === 'string';
      case 'number':
      case 'integer':
        return typeof v === 'number';
      case 'boolean':
        return typeof v === 'boolean';
      case 'array':
        return Array.isArray(v);
      case 'object':
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      default:
        return false;
    }
  };
  return anyJson(sizes).filter((v) => !isType(v));
}

/** A bad (or borderline) value for one field. */
export function badValue(schema: FieldSchema, sizes: SizeLimits): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [wrongType(schema, sizes)];
  const numeric = schema.type === 'number' || schema.type === 'integer';
  if (numeric) options.push(boundaryNumbers(schema), boundaryNumbers(schema));
  if (schema.type === 'string') options.push(badStrings(schema, sizes), badStrings(schema, sizes));
  if (schema.type === 'boolean') options.push(fc.constantFrom('true', 'false', 0, 1, 'yes', '', 'TRUE'));
  if (schema.type === 'object') options.push(badObject(schema, sizes), badObject(schema, sizes));
  return fc.oneof(...options);
}

/** Names a client might add: long, unicode, prototype-ish, many of them. */
function unknownKeys(sizes: SizeLimits, taken: ReadonlySet<string>): fc.Arbitrary<string[]> {
  const name = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
    fc.constantFrom('', ' ', 'x.y', '0', 'force', 'Device'),
    fc.string({ maxLength: 20 }),
    anyString({ ...sizes, maxString: Math.min(sizes.maxString, 2_000) }),
  );
  const many = fc
    .integer({ min: Math.min(20, sizes.maxItems), max: sizes.maxItems })
    .map((n) => Array.from({ length: n }, (_, i) => `k${i}`));
  return fc
    .oneof(fc.array(name, { minLength: 1, maxLength: 5 }), many)
    .map((keys) => keys.filter((k) => !taken.has(k)));
}

export type Mutation =
  | { kind: 'replace'; field: string; value: unknown }
  | { kind: 'delete'; field: string }
  | { kind: 'unknown'; keys: string[]; value: unknown };

/** An object with bad fields, missing required ones or unknown keys (for nested objects such as `region`). */
function badObject(schema: FieldSchema, sizes: SizeLimits): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(validObject(schema), fc.array(mutation(schema, sizes), { minLength: 1, maxLength: 2 }))
    .map(([base, mutations]) => applyMutations(base, mutations));
}

/** One change to an object of `schema`: a field replaced by a bad value, a field removed, or unknown keys. */
export function mutation(
  schema: FieldSchema,
  sizes: SizeLimits,
  fixed: ReadonlySet<string> = new Set(),
): fc.Arbitrary<Mutation> {
  const fields = Object.keys(schema.properties ?? {}).filter((f) => !fixed.has(f));
  const taken = new Set([...Object.keys(schema.properties ?? {}), ...fixed]);
  const options: fc.Arbitrary<Mutation>[] = [
    // A few unknown keys carry any value; thousands of them carry a small one (the body stays under its limit).
    unknownKeys(sizes, taken).chain((keys) =>
      (keys.length > 5 ? fc.integer() : anyJson(sizes)).map((value) => ({ kind: 'unknown', keys, value }) as Mutation),
    ),
  ];
  if (fields.length > 0) {
    const replace = fc.constantFrom(...fields).chain((field) =>
      badValue((schema.properties ?? {})[field] ?? {}, sizes).map((value) => ({ kind: 'replace', field, value }) as Mutation),
    );
    const remove = fc.constantFrom(...fields).map((field) => ({ kind: 'delete', field }) as Mutation);
    options.push(replace, replace, replace, remove);
  }
  return fc.oneof(...options);
}

/** Sets an own property, also for a key such as `__proto__` (which plain assignment would turn into a prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function applyMutations(base: Record<string, unknown>, mutations: readonly Mutation[]): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const m of mutations) {
    if (m.kind === 'replace') result[m.field] = m.value;
    else if (m.kind === 'delete') delete result[m.field];
    else for (const key of m.keys) setOwn(result, key, m.value);
  }
  return result;
}

/** Ids as a URL path can carry them (text, not `.` or `..`): unknown, empty, too long, odd characters. */
export function badId(known: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('no-such-phone', '', ' ', 'PHONE-1', '%2F', 'a/b', '?x=1', '#', '\ud800', '😀'),
      fc.constantFrom('\u0001', 'phone-1\u0000', '\u007f', '\u0085', 'x'.repeat(128), 'x'.repeat(129)),
      fc.constantFrom(...known, 'id').map((id) => `${id} `),
      fc.string({ maxLength: 140 }),
      fc.array(oddPiece, { maxLength: 8 }).map((p) => p.join('')),
    )
    .filter((id) => id !== '.' && id !== '..' && !known.includes(id));
}

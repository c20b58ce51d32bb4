import { z } from 'zod';
import { ApexError } from '@apex/errors';
import { inputFromQuery, rejectUnknownFields } from './input';

const schema = z.strictObject({
  device: z.string().optional(),
  maxDepth: z.number().int().min(1).optional(),
  visibleOnly: z.boolean().default(true),
  roles: z.array(z.enum(['button', 'text'])).optional(),
  query: z.string().optional(),
});

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApexError);
    return (error as ApexError).issues;
  }
  throw new Error('expected a throw');
}

describe('inputFromQuery', () => {
  it('converts each value to its field type', () => {
    const input = inputFromQuery(new URLSearchParams('maxDepth=3&visibleOnly=false&roles=button&roles=text&query=42'), schema, ['device']);
    expect(input).toEqual({ maxDepth: 3, visibleOnly: false, roles: ['button', 'text'], query: '42' });
    expect(schema.parse(input)).toEqual(input);
  });

  it('leaves what is not a number a string, so zod names the field', () => {
    for (const text of ['NaN', 'Infinity', 'abc', '']) {
      const input = inputFromQuery(new URLSearchParams({ maxDepth: text }), schema, ['device']);
      expect(input.maxDepth).toBe(text);
      expect(schema.safeParse(input).success).toBe(false);
    }
    const huge = inputFromQuery(new URLSearchParams({ maxDepth: '1e309' }), schema, ['device']);
    expect(huge.maxDepth).toBe(Infinity);
    expect(schema.safeParse(huge).success).toBe(false);
  });

  it('refuses unknown parameters, the path-owned device and a repeated scalar', () => {
    expect(issuesOf(() => inputFromQuery(new URLSearchParams('depth=3'), schema, ['device']))).toEqual([
      { path: 'depth', message: 'is not a known field' },
    ]);
    expect(issuesOf(() => inputFromQuery(new URLSearchParams('device=x'), schema, ['device']))).toEqual([
      { path: 'device', message: 'is given by the path, not the query' },
    ]);
    expect(issuesOf(() => inputFromQuery(new URLSearchParams('maxDepth=1&maxDepth=2'), schema, ['device']))).toEqual([
      { path: 'maxDepth', message: 'must be given once' },
    ]);
  });
});

describe('rejectUnknownFields', () => {
  it('lists every unknown body field', () => {
    expect(issuesOf(() => rejectUnknownFields({ query: 'x', a: 1, b: 2 }, schema, ['device'], 'body'))).toEqual([
      { path: 'a', message: 'is not a known field' },
      { path: 'b', message: 'is not a known field' },
    ]);
    expect(() => rejectUnknownFields({ query: 'x', maxDepth: 2 }, schema, ['device'], 'body')).not.toThrow();
  });
});

describe('echoed field names', () => {
  it('names at most 20 unknown fields, each cut to 64 characters, and counts the rest', () => {
    const body = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`${'at ('.repeat(2_000)}${i}`, i]));
    let error: unknown;
    try {
      rejectUnknownFields(body, schema, ['device'], 'body');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ApexError);
    const { message, issues } = error as ApexError;
    expect(issues).toHaveLength(20);
    expect(issues?.every((issue) => issue.path.length === 64 && issue.message === 'is not a known field')).toBe(true);
    expect(message).toMatch(/^Unknown body fields: (at \(){15}at …, /);
    expect(message).toMatch(/ and 980 more\.$/);
    expect(message.length).toBeLessThan(20 * 70 + 60);
  });

  it('names a path-owned field the client repeated as before', () => {
    expect(issuesOf(() => rejectUnknownFields({ device: 'x', zzz: 1 }, schema, ['device'], 'body'))).toEqual([
      { path: 'device', message: 'is given by the path, not the body' },
      { path: 'zzz', message: 'is not a known field' },
    ]);
  });
});

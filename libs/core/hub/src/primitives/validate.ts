import { invalidInput } from '@apex/errors';
import type { z } from 'zod';

/** Parses input or throws `invalid_argument` listing each bad field; nothing reaches a device before this. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(result.error.issues, what);
  return result.data;
}

import { z } from 'zod';
import {
  APP_ID_PATTERN,
  MAX_APP_ID_LENGTH,
  MAX_COORDINATE,
  MAX_DEVICE_ID_LENGTH,
  MAX_SEARCH_TEXT_LENGTH,
  MAX_TYPED_TEXT_LENGTH,
} from './limits';

/**
 * Field schemas shared by several operations: each rule and description is written once here, each bound in
 * `limits.ts`. Units are points (iOS) / density-independent pixels (Android) everywhere.
 */

/** An id a client names a device or a task by holds no control characters, on every face (REST refuses them in a path). */
export function withoutControlCharacters(schema: z.ZodString): z.ZodString {
  return schema.refine((id) => !/\p{Cc}/u.test(id), 'must not contain control characters');
}

export const deviceField = withoutControlCharacters(z.string().min(1).max(MAX_DEVICE_ID_LENGTH))
  .optional()
  .describe('Device id from list_devices; optional if only one device');

/** One coordinate in points from the top-left corner (finite, ≥ 0; the primitives check the real screen). */
export const coordinate = z.number().min(0).max(MAX_COORDINATE);

export const pointSchema = z.object({ x: coordinate, y: coordinate }).describe('points');

const rectSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: z.number().positive().max(MAX_COORDINATE),
  height: z.number().positive().max(MAX_COORDINATE),
});

export const regionField = rectSchema.optional().describe('Only look inside this rectangle (points).');

/** Bundle id (iOS, e.g. com.apple.Preferences) or package name (Android, e.g. com.android.settings). */
export const appIdField = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(MAX_APP_ID_LENGTH)
  .regex(APP_ID_PATTERN, 'must be an app id such as com.apple.Preferences')
  .describe('Bundle id on iOS (e.g. com.apple.Preferences), package name on Android. See list_apps.');

/** Text to type into the focused field. */
export const typedTextField = (what: string) => z.string().min(1).max(MAX_TYPED_TEXT_LENGTH).describe(what);

/** Text to look for on the screen: something a finder can match, so at least one letter or digit. */
export const searchTextField = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_SEARCH_TEXT_LENGTH)
    .refine((text) => /[\p{L}\p{N}]/u.test(text), 'must contain at least one letter or digit')
    .describe(what);

/** Outputs: plain shapes (no bounds) so the advertised output schema stays small. */
export const pointOut = z.object({ x: z.number(), y: z.number() });
export const rectOut = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

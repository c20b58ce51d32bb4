import { z } from 'zod';
import { AppIdSchema } from '@apex/hub';

/**
 * Field schemas shared by several operations: each bound and description is written once here.
 * Units are points (iOS) / density-independent pixels (Android) everywhere.
 */

/** Larger than any phone or tablet screen in points; the primitives check the real screen. */
export const MAX_COORDINATE = 10_000;
export const MAX_TEXT_LENGTH = 2_000;

/** An id a client names a device or a task by holds no control characters, on every face (REST refuses them in a path). */
export function withoutControlCharacters(schema: z.ZodString): z.ZodString {
  return schema.refine((id) => !/\p{Cc}/u.test(id), 'must not contain control characters');
}

export const deviceField = withoutControlCharacters(z.string().min(1).max(128))
  .optional()
  .describe('Device id from list_devices; optional if only one device');

/** One coordinate in points from the top-left corner (finite, ≥ 0; the primitives check the real screen). */
export const coordinate = z.number().min(0).max(MAX_COORDINATE);

export const pointSchema = z.object({ x: coordinate, y: coordinate }).describe('points');

export const rectSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: z.number().positive().max(MAX_COORDINATE),
  height: z.number().positive().max(MAX_COORDINATE),
});

export const regionField = rectSchema.optional().describe('Only look inside this rectangle (points).');

/** Bundle id (iOS, e.g. com.apple.Preferences) or package name (Android, e.g. com.android.settings). */
export const appIdField = AppIdSchema.describe('Bundle id on iOS (e.g. com.apple.Preferences), package name on Android. See list_apps.');

export const textField = (what: string) => z.string().min(1).max(MAX_TEXT_LENGTH).describe(what);

/** Outputs: plain shapes (no bounds) so the advertised output schema stays small. */
export const pointOut = z.object({ x: z.number(), y: z.number() });
export const rectOut = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

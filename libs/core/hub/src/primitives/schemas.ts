import { z } from 'zod';
import { HARDWARE_BUTTONS } from '@apex/port';

/**
 * Input schemas of the primitives: the one place their rules live. Operations may reuse them (and add
 * descriptions) instead of restating them. All coordinates are in points.
 */

/** z.number() already rejects NaN and ±Infinity. */
const coordinate = z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a finite number') });

export const PointSchema = z.object({ x: coordinate, y: coordinate });

export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number];

const durationMs = z.number().int().min(50).max(10_000);

export const SwipeBetweenPointsSchema = z.object({
  from: PointSchema,
  to: PointSchema,
  durationMs: durationMs.optional(),
});

/**
 * `direction` is the way the finger moves: `up` moves the finger up, so the content scrolls to show what
 * is further down (a user swiping up). Default start: the screen's centre; default distance: half the
 * screen along that axis; the end is kept inside the screen.
 */
export const SwipeDirectionSchema = z.object({
  direction: z.enum(SWIPE_DIRECTIONS),
  start: PointSchema.optional(),
  distance: z.number().positive().optional(),
  durationMs: durationMs.optional(),
});

export const SCREENSHOT_FORMATS = ['png', 'jpeg'] as const;
export const SCREENSHOT_SCALES = ['points', 'native'] as const;

export const ScreenshotOptionsSchema = z.object({
  /** Default png. */
  format: z.enum(SCREENSHOT_FORMATS).optional(),
  /** `points` (default): one image pixel per point, so image pixels are tap coordinates. `native`: device pixels. */
  scale: z.enum(SCREENSHOT_SCALES).optional(),
  /** Downscale (never upscale) so the image is at most this wide, keeping the aspect ratio. */
  maxWidth: z.number().int().min(16).max(10_000).optional(),
  /** JPEG quality 1–100 (default 80); ignored for PNG. */
  quality: z.number().int().min(1).max(100).optional(),
});

export const InputTextSchema = z
  .object({
    text: z.string().max(10_000),
    /** Press the keyboard's return key after typing. */
    submit: z.boolean().optional(),
  })
  .refine((args) => args.text.length > 0 || args.submit === true, {
    path: ['text'],
    message: 'must not be empty (unless submit is true)',
  });

/** A bundle id (iOS) or package name (Android). */
export const AppIdSchema = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be an app id such as com.apple.Preferences');

export const HardwareButtonSchema = z.enum(HARDWARE_BUTTONS);

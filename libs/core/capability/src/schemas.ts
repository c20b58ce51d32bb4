import { z } from 'zod';
import type { Appearance, Orientation } from '@apex/port';
import {
  MAX_HOST_PATH_LENGTH,
  APP_ID_PATTERN,
  MAX_APP_ID_LENGTH,
  MAX_COORDINATE,
  MAX_APP_NAME_LENGTH,
  MAX_DEVICE_ID_LENGTH,
  MAX_SEARCH_TEXT_LENGTH,
  MAX_TYPED_TEXT_LENGTH,
  MAX_URL_LENGTH,
  REFUSED_URL_SCHEMES,
} from './limits';
import { secretField } from './secrets';

/**
 * Field schemas shared by several operations: each rule and description is written once here, each bound in
 * `limits.ts`. Units are points (iOS) / density-independent pixels (Android) everywhere.
 */

/** An id a client names a device or a task by holds no control characters, on every face (REST refuses them in a path). */
export function withoutControlCharacters(schema: z.ZodString): z.ZodString {
  return schema.refine((id) => !/\p{Cc}/u.test(id), 'must not contain control characters');
}

/**
 * A device id from list_devices (its description says so once, not in every tool). Its length is checked by a
 * refinement, not `min`/`max`: those would be repeated in the JSON schema of every tool of the list.
 */
export const deviceField = withoutControlCharacters(
  z
    .string()
    .refine((id) => id.length > 0, 'must not be empty')
    .refine((id) => id.length <= MAX_DEVICE_ID_LENGTH, `must be at most ${MAX_DEVICE_ID_LENGTH} characters`),
).optional();

/** One coordinate in points from the top-left corner (finite, ≥ 0; the primitives check the real screen). */
export const coordinate = z.number().min(0).max(MAX_COORDINATE);

export const pointSchema = z.object({ x: coordinate, y: coordinate });

const rectSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: z.number().positive().max(MAX_COORDINATE),
  height: z.number().positive().max(MAX_COORDINATE),
});

export const regionField = rectSchema.optional().describe('only inside');

/** Bundle id (iOS, e.g. com.apple.Preferences) or package name (Android, e.g. com.android.settings). */
export const appIdValue = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(MAX_APP_ID_LENGTH)
  .regex(APP_ID_PATTERN, 'must be an app id such as com.apple.Preferences');
export const appIdField = appIdValue.describe('e.g. com.apple.Preferences (list_apps)');

/** Text to type into the focused field. */
export const typedTextField = (what: string) => secretField(z.string().min(1).max(MAX_TYPED_TEXT_LENGTH).describe(what));

/** Text to look for on the screen: something a finder can match, so at least one letter or digit. */
export const searchTextField = (what?: string) => {
  const field = z
    .string()
    .min(1)
    .max(MAX_SEARCH_TEXT_LENGTH)
    .refine((text) => /[\p{L}\p{N}]/u.test(text), 'must contain at least one letter or digit');
  return what ? field.describe(what) : field;
};

/** Outputs: plain shapes (no bounds) so the advertised output schema stays small. */
export const pointOut = z.object({ x: z.number(), y: z.number() });
export const rectOut = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Why a URL cannot be opened, or undefined when it is a web address or an app's URL scheme. */
function urlProblem(url: string): string | undefined {
  const scheme = URL_SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'must start with a scheme, e.g. https:// or maps://';
  if ((REFUSED_URL_SCHEMES as readonly string[]).includes(scheme)) return `must not use the ${scheme}: scheme (only web addresses and app URL schemes)`;
  if (/[\s\p{Cc}]/u.test(url)) return 'must not contain spaces or control characters (percent-encode them)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  if ((scheme === 'http' || scheme === 'https') && parsed.hostname === '') return 'needs a host, e.g. https://example.com';
  if (url.length === scheme.length + 1) return `needs something after ${scheme}:`;
  return undefined;
}

/** A web address (http, https) or an app's URL scheme (maps://…, prefs:…); code and local-file schemes refused. */
export const urlField = z
  .string({ error: 'is required' })
  .min(1, 'must not be empty')
  .max(MAX_URL_LENGTH)
  .superRefine((url, ctx) => {
    // The length checks above already spoke for these.
    if (url.length === 0 || url.length > MAX_URL_LENGTH) return;
    const problem = urlProblem(url);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('http(s):// or an app scheme; no javascript:, data:, file:');

/** An app's name as its icon shows it (e.g. Settings); at least one letter or digit. */
export const appNameField = z
  .string()
  .min(1)
  .max(MAX_APP_NAME_LENGTH)
  .refine((name) => /[\p{L}\p{N}]/u.test(name), 'must contain at least one letter or digit')
  .describe('as on its icon, e.g. Settings');

/** The port's orientations and appearances, as lists for the schemas. */
export const ORIENTATIONS = ['portrait', 'landscape'] as const satisfies readonly Orientation[];
export const APPEARANCES = ['light', 'dark'] as const satisfies readonly Appearance[];

/**
 * An element ref from describe_screen, find_text, find_icon or get_ui_tree ("e12"). Described once, in
 * describe_screen's description, not per tool: the tool list is read on every connection.
 */
export const refField = z
  .string()
  .regex(/^e\d{1,9}$/, 'must be a ref such as e12 from describe_screen, find_text, find_icon or get_ui_tree')
  .optional();

/** What an action reports of the screen after it (explained once, in describe_screen's description). */
export const OBSERVE_LEVELS = ['none', 'summary', 'describe'] as const;
export type ObserveLevel = (typeof OBSERVE_LEVELS)[number];
export const observeField = z.enum(OBSERVE_LEVELS).optional();

/**
 * `observed`, an action's account of the screen after it (see observe.ts for its type). `screen` (observe
 * "describe") is describe_screen's result; its schema is that tool's, not repeated in every action's.
 */
export const observedField = z
  .object({
    app: z.object({ appId: z.string(), name: z.string().optional() }).optional(),
    changed: z.boolean().optional(),
    alert: z.string().optional(),
    keyboardVisible: z.boolean(),
    screen: z.record(z.string(), z.unknown()).optional(),
  })
  .optional();

/** A file or folder on the Apex host (not on the phone), inside the directories Apex may read from. */
export const hostPathField = (what: string) =>
  withoutControlCharacters(z.string({ error: 'is required' }).min(1, 'must not be empty').max(MAX_HOST_PATH_LENGTH)).describe(what);

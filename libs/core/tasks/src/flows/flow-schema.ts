import { z } from 'zod';
import { HARDWARE_BUTTONS } from '@apex/port';

/**
 * A flow: a plain file of neutral steps any device can run, in the words of the catalog. Elements are chosen
 * by what a person reads (text, label, role, icon), coordinates only as a last resort. Every bound is here.
 */

export const FLOW_LIMITS = {
  maxSteps: 200,
  maxTextLength: 500,
  maxVars: 50,
  maxSwipes: 30,
  defaultScrollSwipes: 10,
  defaultWaitMs: 5_000,
  maxWaitMs: 60_000,
} as const;

/**
 * How a value that the schema reads in code (a shorthand, a step's one key) is written in a file: the flow's
 * JSON Schema for editors shows these forms (flow-json-schema.ts). The zod schemas stay the only rules.
 */
export const WRITTEN_FORMS = new Map<z.ZodType, z.ZodType>();

function writtenAs<T extends z.ZodType>(schema: T, form: z.ZodType): T {
  WRITTEN_FORMS.set(schema, form);
  return schema;
}

const text = z.string().min(1).max(FLOW_LIMITS.maxTextLength);
const point = z.strictObject({ x: z.number().min(0).max(10_000), y: z.number().min(0).max(10_000) });

/** How an element is chosen: a plain string is `{text: …}`. */
const selectorObject = z
  .strictObject({
    text: text.optional().describe('Text the element shows (its label or value), or text on the screen'),
    label: text.optional().describe("The element's accessibility label (with role to tell a button from a heading)"),
    role: z.string().min(1).max(40).optional().describe('button, cell, switch, textField, …'),
    icon: z.string().min(1).max(40).optional().describe('A glyph name, e.g. "search", "trash"'),
    index: z.number().int().min(0).max(99).optional().describe('Which of several matches, in reading order (0-based)'),
    point: point.optional().describe('Coordinates in points: the last resort'),
  })
  .refine(
    (s) => {
      const names = [s.text, s.label, s.icon, s.point].filter((v) => v !== undefined).length;
      return names === 1 || (names === 0 && s.role !== undefined);
    },
    { message: 'name the element by one of text, label, icon or point (or by role alone)' },
  );

/** A step's argument that may be written as one plain value: `tap: General` is `tap: {text: General}`. */
function shorthand<T extends z.ZodObject>(key: string, full: T) {
  return writtenAs(
    z.preprocess((value) => (typeof value === 'string' ? { [key]: value } : value), full),
    z.union([full.shape[key] as z.ZodType, full]),
  );
}

export const selectorSchema = shorthand('text', selectorObject);
export type Selector = z.output<typeof selectorObject>;

const direction = z.enum(['up', 'down', 'left', 'right']);
const pressable = z.object({ durationMs: z.number().int().min(100).max(10_000).optional() });

const STEP_SCHEMAS = {
  launch: text,
  tap: selectorSchema,
  double_tap: selectorSchema,
  long_press: writtenAs(
    z.preprocess((value) => (typeof value === 'string' ? { selector: { text: value } } : value), pressable.extend({ selector: selectorSchema }).strict()),
    z.union([text, pressable.extend({ selector: selectorSchema }).strict()]),
  ),
  type: shorthand('text', z.strictObject({ text, into: selectorSchema.optional(), submit: z.boolean().optional() })),
  swipe: shorthand('direction', z.strictObject({ direction })),
  scroll_until: shorthand('text', z.strictObject({ text, direction: direction.optional(), maxSwipes: z.number().int().min(1).max(FLOW_LIMITS.maxSwipes).optional() })),
  press: z.enum(HARDWARE_BUTTONS),
  open_url: text,
  wait_for: z.strictObject({ text, gone: z.boolean().optional(), timeoutMs: z.number().int().min(0).max(FLOW_LIMITS.maxWaitMs).optional() }),
  assert_visible: selectorSchema,
  assert_not_visible: selectorSchema,
  handle_alert: z.union([z.enum(['accept', 'dismiss']).transform((action) => ({ action })), z.strictObject({ press: text }).transform(({ press }) => ({ action: 'press' as const, button: press }))]),
  set_orientation: z.enum(['portrait', 'landscape']),
  hide_keyboard: z.literal(true),
} as const;

export type StepKind = keyof typeof STEP_SCHEMAS;

/** What each step does, as an editor shows it. */
const STEP_HELP: Record<StepKind, string> = {
  launch: 'Opens an app by name ("Settings") or id',
  tap: 'Taps an element: `tap: General` or `tap: {label: Done, role: button}`',
  double_tap: 'Double-taps an element',
  long_press: 'Presses an element and holds (durationMs)',
  type: 'Types into the focused field, or into `into` (tapped first); submit presses return',
  swipe: 'Swipes the screen: up, down, left or right',
  scroll_until: 'Swipes (default up: reveals what is below) until the text is on screen',
  press: 'Presses a hardware button',
  open_url: 'Opens a URL (a web page, or an app\'s link)',
  wait_for: 'Waits until the text is on screen (or, with gone, off it)',
  assert_visible: 'Fails unless the element is on screen',
  assert_not_visible: 'Fails while the element is on screen',
  handle_alert: 'Answers the alert: accept, dismiss or {press: Button}',
  set_orientation: 'Turns the phone: portrait or landscape',
  hide_keyboard: 'Puts the keyboard away: `hide_keyboard: true`',
};
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as StepKind[];

export type FlowStep = { [K in StepKind]: { kind: K; args: z.output<(typeof STEP_SCHEMAS)[K]> } }[StepKind];

/** One step is an object with exactly one key, the step's kind. */
const stepSchema = writtenAs(
  z
  .record(z.string(), z.unknown())
  .superRefine((raw, ctx) => {
    const keys = Object.keys(raw);
    if (keys.length !== 1) ctx.addIssue({ code: 'custom', message: `a step has exactly one key, its kind (one of ${STEP_KINDS.join(', ')})` });
    else if (!(keys[0] in STEP_SCHEMAS)) ctx.addIssue({ code: 'custom', message: `unknown step "${keys[0]}": use one of ${STEP_KINDS.join(', ')}` });
  })
  .transform((raw, ctx): FlowStep => {
    const kind = Object.keys(raw)[0] as StepKind;
    const parsed = STEP_SCHEMAS[kind].safeParse(raw[kind]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [kind, ...issue.path] } as z.core.$ZodRawIssue);
      return z.NEVER;
    }
    return { kind, args: parsed.data } as FlowStep;
  }),
  z.union(STEP_KINDS.map((kind) => z.strictObject({ [kind]: STEP_SCHEMAS[kind] }).describe(STEP_HELP[kind]))),
);

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

export const flowSchema = z.strictObject({
  name: z.string().min(1).max(200).describe("The flow's name, shown in its task"),
  app: text.optional().describe('Launched first, by name or id'),
  /**
   * What a selector the screen's description does not answer may try: `pixels` (the default) asks the finders
   * (the whole tree, OCR, icon glyphs); `agent` then hands a tap still not found to a planner for that one
   * action, and the task's result suggests the changed step; `none` fails the step at once.
   */
  heal: z
    .enum(['pixels', 'agent', 'none'])
    .optional()
    .describe('A selector not among the elements: pixels (default) reads the screen; agent then asks a planner for that step; none fails'),
  vars: z
    .record(z.string().regex(VAR_NAME, 'a variable name is letters, digits and _'), z.string().max(FLOW_LIMITS.maxTextLength))
    .refine((vars) => Object.keys(vars).length <= FLOW_LIMITS.maxVars, `at most ${FLOW_LIMITS.maxVars} variables`)
    .optional()
    .describe('Default values of ${name} variables; the caller\'s values win'),
  steps: z.array(stepSchema).min(1).max(FLOW_LIMITS.maxSteps).describe('Run in order; each waits for the screen to settle'),
});

export type Flow = z.output<typeof flowSchema>;
/** A flow as written (before its steps are read): what the run_flow operation takes as `flow`. */
export type FlowInput = z.input<typeof flowSchema>;

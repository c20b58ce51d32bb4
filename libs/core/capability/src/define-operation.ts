import type { z } from 'zod';
import type { DeviceHub } from '@apex/hub';
import type { Perception, ScreenDescriptionResult } from '@apex/perception';
import type { OperationForwarder } from './forwarding';
import { observedField, observeField } from './schemas';

/**
 * What every operation runs against. The runtime builds it; transports receive it from their app and never
 * construct it. Optional members are added by later libs (e.g. `tasks` by libs/core/tasks) without breaking this one.
 */
export interface OperationContext {
  hub: DeviceHub;
  perception: Perception;
  /** The catalog the faces serve over this context; the runtime sets it (device and task operations). */
  operations?: readonly AnyOperation[];
  /** The screenshots of agent task steps, for faces that show them; the runtime sets it (its task service). */
  stepScreenshots?: StepScreenshots;
  /** The JSON Schema of flow files, for editors (REST serves it); the runtime sets it (from the tasks lib). */
  flowSchema?: Readonly<Record<string, unknown>>;
  appRoots?: readonly string[];
  /** The finished screen recordings, for faces that serve the files; the runtime sets it (its recording service). */
  recordings?: RecordingFiles;
  /** Runs the operations on devices other nodes hold there (a cluster's `listAll`); the runtime sets it. */
  forwarder?: OperationForwarder;
}

/** Where install_app and add_media may read files from. */
export function appRootsOf(ctx: OperationContext): readonly string[] {
  return ctx.appRoots ?? [process.cwd()];
}

/** Where the faces read a finished recording's MP4 from, without knowing how recordings are made or kept. */
export interface RecordingFiles {
  /**
   * The finished recording's file: `invalid_argument` for a malformed id, `recording_not_found` for an unknown
   * one, one still being recorded, or one removed to keep the disk bounded.
   */
  recordingFile(id: string): Promise<{ path: string; bytes: number }>;
}

/** Where the faces read a task step's screenshot from, without knowing where or how it is kept. */
export interface StepScreenshots {
  /**
   * The screenshot of step `step` (1-based, as a person counts them) of task `taskId`: `invalid_argument`
   * for a malformed id, `task_not_found` for an unknown task, a step it does not have, or a screenshot no
   * longer kept (retention).
   */
  stepScreenshot(taskId: string, step: number): Promise<ImageAttachment>;
}

/**
 * The groups an MCP client is offered tools in (issue 33: a lean default, widened on demand); every tool stays
 * reachable over REST whatever the toolsets. What each holds and the default: toolsets.ts.
 */
export const TOOLSETS = ['devices', 'observe', 'act', 'inspect', 'gestures', 'apps', 'environment', 'evidence', 'tasks', 'flows'] as const;
export type Toolset = (typeof TOOLSETS)[number];

/** The four MCP tool annotations. All are required so each one is a deliberate choice. */
export interface OperationAnnotations {
  /** Changes nothing on the device. */
  readOnlyHint: boolean;
  /** May lose data or state (e.g. terminating an app); false means only ordinary, additive input. */
  destructiveHint: boolean;
  /** Calling twice with the same input has no further effect. */
  idempotentHint: boolean;
  /** Reaches beyond the closed world of the connected devices. */
  openWorldHint: boolean;
}

/** Binary image bytes an operation returns next to its structured output (e.g. a screenshot). */
export interface ImageAttachment {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
}

/** What a handler returns when it has an image besides the structured output: build it with `withImage`. */
export class WithImage<O> {
  constructor(
    readonly output: O,
    readonly image: ImageAttachment,
  ) {}
}

export function withImage<O>(output: O, image: ImageAttachment): WithImage<O> {
  return new WithImage(output, image);
}

/** What describe_screen returns: its structured output and the whole description behind it (with its text). */
export class WithScreen<O> {
  constructor(
    readonly output: O,
    readonly screen: ScreenDescriptionResult,
  ) {}
}

/** The input an operation's handler receives: `device`, when the operation has one, is already resolved. */
export type HandlerInput<I> = 'device' extends keyof I ? Omit<I, 'device'> & { device: string } : I;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyObjectSchema = z.ZodObject<any>;

export interface OperationDefinition<
  In extends AnyObjectSchema = AnyObjectSchema,
  Out extends AnyObjectSchema = AnyObjectSchema,
  Ctx extends OperationContext = OperationContext,
> {
  /** snake_case; the MCP tool name and the agent's tool name. */
  name: string;
  /** A short human title. */
  title: string;
  /** Written for a model: what it does, units, when to use it. */
  description: string;
  /** Every field described and bounded. A `device` field, when present, is resolved by `runOperation`. */
  input: In;
  /** The structured (JSON) result. Binary data travels beside it as an `ImageAttachment`. */
  output: Out;
  annotations: OperationAnnotations;
  /** The toolset the MCP face offers it in (required: a new operation decides whether it is in the lean default). */
  toolset: Toolset;
  handler: (ctx: Ctx, input: HandlerInput<z.output<In>>) => Promise<z.input<Out> | WithImage<z.input<Out>> | WithScreen<z.input<Out>>>;
  /** A one-line rendering of the structured output for a model or a log (default: compact JSON). */
  summarize?: (output: z.output<Out>) => string;
  /**
   * An action on the device: its input also takes `observe` and its output answers `observed` (the screen
   * after it, see observe.ts). `runOperation` does the observing; the handler never sees `observe`.
   */
  acts?: boolean;
  /**
   * How long this call waits for its device while the device is being prepared, when the operation decides
   * (wait_for_device: its `timeoutMs`); otherwise the face's `CallOptions.deviceWaitMs`.
   */
  deviceWaitMs?: (input: HandlerInput<z.output<In>>) => number;
}

/**
 * One call per operation file. An action (`acts: true`) is returned with its public schemas (`observe` in,
 * `observed` out): the catalog's object, the one every face registers.
 */
export function defineOperation<In extends AnyObjectSchema, Out extends AnyObjectSchema, Ctx extends OperationContext = OperationContext>(
  definition: OperationDefinition<In, Out, Ctx> & { acts: true },
): AnyOperation;
export function defineOperation<In extends AnyObjectSchema, Out extends AnyObjectSchema, Ctx extends OperationContext = OperationContext>(
  definition: OperationDefinition<In, Out, Ctx>,
): OperationDefinition<In, Out, Ctx>;
export function defineOperation(definition: AnyOperation): AnyOperation {
  if (!definition.acts) return definition;
  return { ...definition, input: definition.input.extend({ observe: observeField }), output: definition.output.extend({ observed: observedField }) };
}

/** Any operation, whatever its schemas or the context it needs (device operations, task operations, …). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = OperationDefinition<AnyObjectSchema, AnyObjectSchema, any>;

import { ApexError, invalidArgument, invalidInput } from '@apex/errors';
import { onBehalfOf } from '@apex/hub';
import { WithImage, type AnyOperation, type ImageAttachment, type OperationContext } from './define-operation';
import { DEVICE_OPERATIONS } from './operations';
import { deviceField } from './schemas';

/** The outcome of one operation, for any face to render. */
export interface OperationResult<O = Record<string, unknown>> {
  /** The validated structured output (JSON-safe; `structuredContent` in MCP, the body in REST). */
  output: O;
  /** Present when the operation produced an image (take_screenshot). Not part of `output`. */
  image?: ImageAttachment;
  /** A one-line rendering of `output` for a model. */
  summary: string;
}

export function findOperation(
  name: string,
  operations: readonly AnyOperation[] = DEVICE_OPERATIONS,
): AnyOperation | undefined {
  return operations.find((op) => op.name === name);
}

/** The catalog a face serves for `ctx`: the one the runtime handed it, else the device operations. */
export function catalogOf(ctx: OperationContext): readonly AnyOperation[] {
  return ctx.operations ?? DEVICE_OPERATIONS;
}

/** Whether the operation acts on one device: its `device` input is `deviceField`, which the hub resolves (a filter named `device` is not). */
export function takesDevice(op: AnyOperation): boolean {
  return op.input.shape['device'] === deviceField;
}

/** How one call is made: `signal` aborts when the client gives up (disconnects, cancels). */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Validates `rawInput` against the operation's schema (an `invalid_argument` listing every bad field),
 * resolves the device, runs the handler and validates its output. Throws only `ApexError`s. When
 * `call.signal` aborts, the device actions the handler started and still waits for are withdrawn or aborted.
 */
export async function runOperation<Ctx extends OperationContext>(
  ctx: Ctx,
  operation: string | AnyOperation,
  rawInput: unknown,
  operations: readonly AnyOperation[] = DEVICE_OPERATIONS,
  call: CallOptions = {},
): Promise<OperationResult> {
  const op = typeof operation === 'string' ? findOperation(operation, operations) : operation;
  if (!op) {
    throw invalidArgument(`Unknown operation "${String(operation)}".`, undefined, `Use one of: ${operations.map((o) => o.name).join(', ')}.`);
  }
  const parsed = op.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    throw invalidInput(
      parsed.error.issues,
      `${op.name} arguments`,
      `Fix the listed field(s) and call ${op.name} again; its input schema lists every field and bound.`,
    );
  }

  const input: Record<string, unknown> = { ...parsed.data };
  if (takesDevice(op)) input.device = ctx.hub.resolve(input.device as string | undefined);

  let raw: unknown;
  try {
    // For a device-less operation `device` is simply absent; the handler's type cannot say both at once.
    raw = await onBehalfOf(call.signal, () => op.handler(ctx, input as typeof input & { device: string }));
  } catch (error) {
    if (error instanceof ApexError) throw error;
    if (call.signal?.aborted) {
      throw new ApexError('device_timeout', `${op.name} was cancelled: its caller stopped waiting.`, { cause: error });
    }
    throw new ApexError('internal', `${op.name} failed unexpectedly.`, { cause: error });
  }
  const { value, image } = raw instanceof WithImage ? { value: raw.output as unknown, image: raw.image } : { value: raw };
  const checked = op.output.safeParse(value);
  if (!checked.success) {
    throw new ApexError('internal', `${op.name} produced an invalid result.`, { cause: checked.error });
  }
  const output = checked.data as Record<string, unknown>;
  return { output, image, summary: op.summarize ? op.summarize(output) : JSON.stringify(output) };
}

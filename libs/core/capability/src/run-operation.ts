import { ApexError, invalidArgument, invalidInput } from '@apex/errors';
import { onBehalfOf } from '@apex/hub';
import type { ScreenDescriptionResult } from '@apex/perception';
import { WithImage, WithScreen, type AnyOperation, type ImageAttachment, type OperationContext } from './define-operation';
import { runOnNode } from './forwarding';
import { waitForDevice } from './device-wait';
import { MAX_DEVICE_WAIT_MS } from './limits';
import { forgetScreen, observeAfterAction, screenBefore, type ActionObservation } from './observe';
import { DEVICE_OPERATIONS } from './operations';
import { deviceField, type ObserveLevel } from './schemas';

/** The outcome of one operation, for any face to render. */
export interface OperationResult<O = Record<string, unknown>> {
  /** The validated structured output (JSON-safe; `structuredContent` in MCP, the body in REST). */
  output: O;
  /** Present when the operation produced an image (take_screenshot). Not part of `output`. */
  image?: ImageAttachment;
  /** A rendering of `output` for a model: one line, then (for an action) the screen after it. */
  summary: string;
  /** An action that observed: its own line of `summary`, without the screen after it. */
  actionSummary?: string;
  /**
   * The whole description behind the result, typed: describe_screen's, or the settled screen an action
   * observed with "describe" (`output.observed.screen` is its structured part; its `text` ends `summary`).
   */
  screen?: ScreenDescriptionResult;
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
  /**
   * Whether an action's `observe: "describe"` reads the pixels too (default true, as describe_screen does);
   * the agent loop, which observes from the tree unless a task asks for OCR, says false for its actions.
   */
  observeWithOcr?: boolean;
  /** The call came from another node of the cluster: it is never forwarded again (see forwarding.ts). */
  forwarded?: boolean;
  /**
   * How long the call waits for its device while the device is being prepared (default MAX_DEVICE_WAIT_MS;
   * 0: answer `device_offline` naming the phase at once). The operation may decide instead (`deviceWaitMs`).
   */
  deviceWaitMs?: number;
  /** Hears the device's preparation phases while the call waits for them (MCP: progress notifications). */
  onProgress?: (message: string) => void;
}

/**
 * The one pipeline: validates `rawInput` against the operation's schema (an `invalid_argument` listing every
 * bad field), resolves the device, runs the handler, observes the screen after an action (`acts`, at the
 * level its `observe` asks) and validates the output. A call on a device being prepared first waits for it
 * (`deviceWaitMs`), telling `onProgress` each phase. Throws only `ApexError`s. When `call.signal` aborts, the
 * device actions the handler started and still waits for are withdrawn or aborted.
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
  // An action's `observe` is the pipeline's, not the handler's.
  const observe = op.acts ? ((input.observe as ObserveLevel | undefined) ?? 'summary') : undefined;
  if (op.acts) delete input.observe;
  // A call that left `device` out while several exist went to the default device: its answer says which.
  const defaulted = takesDevice(op) && input.device === undefined && ctx.hub.ids().length > 1;
  if (takesDevice(op)) input.device = ctx.hub.resolve(input.device as string | undefined);
  // A device another node holds: the call, validated here, runs there (its `observe` included).
  const node = takesDevice(op) ? ctx.hub.nodeOf(input.device as string) : undefined;
  if (node && ctx.forwarder?.handles(op.name)) {
    // What the client sent (the node validates it again, the same way), not the parsed values with defaults.
    const result = await runOnNode(ctx.forwarder, op, node, { ...((rawInput ?? {}) as object), device: input.device }, call);
    if (defaulted) result.summary = `On ${String(input.device)} (the default device): ${result.summary}`;
    return result;
  }
  if (takesDevice(op)) {
    const timeoutMs = op.deviceWaitMs?.(input as typeof input & { device: string }) ?? call.deviceWaitMs ?? MAX_DEVICE_WAIT_MS;
    await waitForDevice(ctx, input.device as string, { timeoutMs, signal: call.signal, onProgress: call.onProgress });
  }

  let raw: unknown;
  let observation: ActionObservation | undefined;
  try {
    ({ raw, observation } = await onBehalfOf(call.signal, async () => {
      // For a device-less operation `device` is simply absent; the handler's type cannot say both at once.
      const device = input.device as string;
      const before = observe ? screenBefore(ctx, device) : undefined;
      // "The log since the last action" starts here.
      if (op.acts) ctx.hub.noteAction(device);
      const value: unknown = await op.handler(ctx, input as typeof input & { device: string });
      if (observe === undefined) return { raw: value };
      if (observe === 'none') {
        forgetScreen(ctx, device);
        return { raw: value };
      }
      return { raw: value, observation: await observeAfterAction(ctx, device, observe, before, { withOcr: call.observeWithOcr }) };
    }));
  } catch (error) {
    if (error instanceof ApexError) throw error;
    if (call.signal?.aborted) {
      throw new ApexError('device_timeout', `${op.name} was cancelled: its caller stopped waiting.`, { cause: error });
    }
    throw new ApexError('internal', `${op.name} failed unexpectedly.`, { cause: error });
  }
  const image = raw instanceof WithImage ? raw.image : undefined;
  const screen = raw instanceof WithScreen ? raw.screen : observation?.screen;
  const own = raw instanceof WithImage || raw instanceof WithScreen ? raw.output : raw;
  const checked = op.output.safeParse(observation ? { ...(own as object), observed: observation.observed } : own);
  if (!checked.success) {
    throw new ApexError('internal', `${op.name} produced an invalid result.`, { cause: checked.error });
  }
  const output = checked.data as Record<string, unknown>;
  const result: OperationResult = { output, summary: '' };
  if (image) result.image = image;
  if (screen) result.screen = screen;
  if (raw instanceof WithScreen) {
    result.summary = raw.screen.text;
  } else {
    const line = op.summarize ? op.summarize(output) : JSON.stringify({ ...output, observed: undefined });
    result.summary = observation ? `${line}\n${observation.text}` : line;
    if (observation) result.actionSummary = line;
  }
  if (defaulted) result.summary = `On ${String(input.device)} (the default device): ${result.summary}`;
  return result;
}

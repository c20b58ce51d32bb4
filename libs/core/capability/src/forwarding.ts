import { ApexError } from '@apex/errors';
import type { ClusterNode } from '@apex/hub';
import type { AnyOperation, ImageAttachment } from './define-operation';
import { observedText, type Observed } from './observe';
import type { CallOptions, OperationResult } from './run-operation';

export type { ClusterNode };

/** What a node answered for a forwarded operation: its structured output, and its image when it had one. */
export interface ForwardedResult {
  output: unknown;
  image?: ImageAttachment;
}

/**
 * Sends an operation on a device another node holds to that node (a cluster's `listAll`); the runtime sets it
 * (the REST client of @apex/rest, with the cluster's token). It answers as the node answered: the result, or
 * the node's semantic error; `unavailable` naming the node when it cannot be reached or does not answer in time.
 */
export interface OperationForwarder {
  /** Whether the operation is sent to the node (a device operation of its API); the others run here (tasks: the shared queue routes them). */
  handles(operation: string): boolean;
  forward(node: ClusterNode, operation: AnyOperation, input: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<ForwardedResult>;
}

/**
 * Runs a validated call on the node that holds its device, instead of here (the one place operations are
 * forwarded). A call that was itself forwarded is never forwarded again: the device moved meanwhile, and a
 * second hop could bounce between nodes whose views disagree for a moment.
 */
export async function runOnNode(
  forwarder: OperationForwarder,
  op: AnyOperation,
  node: ClusterNode,
  input: Record<string, unknown>,
  call: CallOptions,
): Promise<OperationResult> {
  const device = String(input['device']);
  if (call.forwarded) {
    throw new ApexError('unavailable', `Device ${device} is no longer held by this node (node ${node.url} holds it now).`, {
      hint: 'Call the operation again: the node it was sent from will reach the device where it is now.',
      retryable: true,
    });
  }
  const answer = await forwarder.forward(node, op, input, { signal: call.signal });
  const checked = op.output.safeParse(answer.output);
  if (!checked.success) {
    throw new ApexError('internal', `Node ${node.url} answered ${op.name} for device ${device} with a result this node cannot read.`, {
      hint: 'Run the same Apex version on every node of the cluster.',
      cause: checked.error,
    });
  }
  const output = checked.data as Record<string, unknown>;
  const line = op.summarize ? op.summarize(output) : JSON.stringify({ ...output, observed: undefined });
  const observed = output['observed'] as Observed | undefined;
  const result: OperationResult = { output, summary: observed ? `${line}\n${observedText(observed)}` : line };
  if (observed) result.actionSummary = line;
  if (answer.image) result.image = answer.image;
  return result;
}

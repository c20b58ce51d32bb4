import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { formatPublicError, toPublicError, type PublicError } from '@apex/errors';
import { type OperationResult } from '@apex/capability';

/** Where a failed call carries its structured `{code, message, hint, retryable, issues?}`. */
export const ERROR_META_KEY = 'apex/error';

/** A successful call: the structured output, a short text, and the image when there is one. */
export function toCallToolResult(result: OperationResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: result.summary }];
  if (result.image) {
    content.push({ type: 'image', data: result.image.data.toString('base64'), mimeType: result.image.mimeType });
  }
  return { content, structuredContent: result.output };
}

/** The one line a model reads; issues already spelled out in the message are not repeated. */
function errorText(error: PublicError): string {
  const issues = error.issues?.filter((issue) => !error.message.includes(issue.message));
  return formatPublicError({ ...error, issues: issues?.length ? issues : undefined });
}

/**
 * A failed call as MCP wants it: `isError: true` with a text a model can act on. The structured error goes in
 * `_meta`, not `structuredContent`: SDK 1.x clients validate `structuredContent` against the tool's output
 * schema even when `isError` is set (typescript-sdk#1943), so an error there would reach the caller as a
 * protocol failure instead of the error.
 */
export function toErrorResult(error: unknown): CallToolResult {
  const pub = toPublicError(error);
  return { isError: true, content: [{ type: 'text', text: errorText(pub) }], _meta: { [ERROR_META_KEY]: { ...pub } } };
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model reply: tool calls (by name and arguments), optional text, optional HTTP failure. */
export interface ScriptedReply {
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  text?: string;
  /** Answer with this HTTP status and a provider-shaped error instead. */
  failWith?: number;
  /** Hold the response this long (e.g. to cancel meanwhile). */
  delayMs?: number;
}

/** What the server saw: the parsed JSON body and the headers of each request. */
export interface RecordedRequest {
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** A reply, or a function of the request that computes one (e.g. tap a center read from the last tool result). */
export type ScriptStep = ScriptedReply | ((request: RecordedRequest, all: RecordedRequest[]) => ScriptedReply);

export interface FakeModelServer {
  /** The base URL to give the SDK (OpenAI: ends in /v1; Anthropic: the origin). */
  baseURL: string;
  requests: RecordedRequest[];
  /** Steps not yet used. */
  remaining(): number;
  close(): Promise<void>;
}

/** Output tokens charged per reply, and input tokens per 4 characters of the request body (deterministic). */
export const FAKE_OUTPUT_TOKENS = 7;
function fakeInputTokens(rawBody: string): number {
  return Math.ceil(rawBody.length / 4);
}

type Wire = 'openai' | 'anthropic';

/**
 * A local model endpoint that speaks the real wire format of OpenAI Chat Completions (`tool_calls`) or the
 * Anthropic Messages API (`tool_use` blocks), answering from a script. It checks what a real endpoint checks
 * that matters here: the credential header, the tool list, and that every tool call of the previous turn was
 * answered before the next request (400 otherwise). When the script runs out it answers with no tool call.
 */
export function startFakeModelServer(wire: Wire, script: ScriptStep[], options: { apiKey?: string } = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const queue = [...script];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const expectedPath = wire === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    if (req.method !== 'POST' || path !== expectedPath) return sendError(res, wire, 404, `No route ${req.method} ${path}`);
    const authorized =
      wire === 'openai'
        ? req.headers.authorization === `Bearer ${options.apiKey ?? 'test-key'}`
        : // The SDK sends the key as x-api-key or (newer versions) as a bearer token; the API takes either.
          (req.headers['x-api-key'] === (options.apiKey ?? 'test-key') || req.headers.authorization === `Bearer ${options.apiKey ?? 'test-key'}`) &&
          typeof req.headers['anthropic-version'] === 'string';
    if (!authorized) return sendError(res, wire, 401, 'invalid credentials');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendError(res, wire, 400, 'body is not JSON');
    }
    const problem = wire === 'openai' ? checkOpenAi(body) : checkAnthropic(body);
    if (problem) return sendError(res, wire, 400, problem);
    const request: RecordedRequest = { body, headers: req.headers };
    requests.push(request);
    const step = queue.shift();
    const reply: ScriptedReply = typeof step === 'function' ? step(request, requests) : (step ?? { text: 'I have nothing more to do.' });
    if (reply.delayMs) {
      // A "thinking" model: the wait ends early when the client gives up, so no timer outlives the test.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    if (reply.failWith) return sendError(res, wire, reply.failWith, 'scripted failure');
    const inputTokens = fakeInputTokens(raw);
    const payload = wire === 'openai' ? openAiReply(reply, body, inputTokens, () => `call_${++counter}`) : anthropicReply(reply, body, inputTokens, () => `toolu_${++counter}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const origin = `http://127.0.0.1:${port}`;
      resolve({
        baseURL: wire === 'openai' ? `${origin}/v1` : origin,
        requests,
        remaining: () => queue.length,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function openAiReply(reply: ScriptedReply, body: Record<string, unknown>, inputTokens: number, nextId: () => string) {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: nextId(),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body['model'],
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text ?? null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        logprobs: null,
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: inputTokens, completion_tokens: FAKE_OUTPUT_TOKENS, total_tokens: inputTokens + FAKE_OUTPUT_TOKENS },
  };
}

function anthropicReply(reply: ScriptedReply, body: Record<string, unknown>, inputTokens: number, nextId: () => string) {
  const content: unknown[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const call of reply.toolCalls ?? []) content.push({ type: 'tool_use', id: nextId(), name: call.name, input: call.arguments });
  return {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model: body['model'],
    content,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: FAKE_OUTPUT_TOKENS },
  };
}

interface OpenAiMessage {
  role: string;
  tool_calls?: Array<{ id: string }>;
  tool_call_id?: string;
}

/** Chat Completions rejects a conversation whose tool calls are not each answered by a `tool` message. */
function checkOpenAi(body: Record<string, unknown>): string | undefined {
  if (typeof body['model'] !== 'string') return 'model is required';
  const messages = body['messages'] as OpenAiMessage[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages is required';
  const tools = body['tools'] as Array<{ type: string; function?: { name?: string; parameters?: { type?: string } } }> | undefined;
  if (tools && !tools.every((t) => t.type === 'function' && t.function?.name && t.function.parameters?.type === 'object')) {
    return 'each tool must be a function with an object parameters schema';
  }
  let open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') {
      if (!message.tool_call_id || !open.has(message.tool_call_id)) return `tool message answers an unknown tool_call_id ${message.tool_call_id}`;
      open.delete(message.tool_call_id);
      continue;
    }
    if (open.size > 0) return `tool_calls ${[...open].join(', ')} were not answered`;
    if (message.role === 'assistant') open = new Set((message.tool_calls ?? []).map((c) => c.id));
  }
  if (open.size > 0) return `tool_calls ${[...open].join(', ')} were not answered`;
  return undefined;
}

interface AnthropicMessage {
  role: string;
  content: string | Array<{ type: string; id?: string; tool_use_id?: string }>;
}

/** The Messages API wants alternating roles and each tool_use answered by a tool_result in the next user turn. */
function checkAnthropic(body: Record<string, unknown>): string | undefined {
  if (typeof body['model'] !== 'string') return 'model is required';
  if (typeof body['max_tokens'] !== 'number') return 'max_tokens is required';
  const messages = body['messages'] as AnthropicMessage[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0 || messages[0].role !== 'user') return 'messages must start with a user turn';
  const tools = body['tools'] as Array<{ name?: string; input_schema?: { type?: string } }> | undefined;
  if (tools && !tools.every((t) => t.name && t.input_schema?.type === 'object')) return 'each tool needs a name and an object input_schema';
  let open: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (i > 0 && messages[i - 1].role === message.role) return 'roles must alternate between user and assistant';
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (message.role === 'user') {
      const answered = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
      if (open.some((id) => !answered.includes(id))) return `tool_use ids ${open.join(', ')} need a tool_result in the next user turn`;
      if (answered.some((id) => !open.includes(id as string))) return 'tool_result for an unknown tool_use id';
      open = [];
    } else {
      open = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id as string);
    }
  }
  if (open.length > 0) return 'the conversation ends with unanswered tool_use blocks';
  return undefined;
}

function sendError(res: ServerResponse, wire: Wire, status: number, message: string): void {
  const body =
    wire === 'openai'
      ? { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: null, param: null } }
      : { type: 'error', error: { type: status === 401 ? 'authentication_error' : status === 400 ? 'invalid_request_error' : 'api_error', message } };
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The text of the last tool result (OpenAI `tool` message or Anthropic `tool_result`) or user message. */
export function lastMessageText(request: RecordedRequest): string {
  const messages = request.body['messages'] as Array<{ role: string; content: unknown }>;
  const last = messages[messages.length - 1];
  if (typeof last.content === 'string') return last.content;
  if (Array.isArray(last.content)) {
    return (last.content as Array<{ type: string; text?: string; content?: unknown }>)
      .map((b) => (typeof b.text === 'string' ? b.text : typeof b.content === 'string' ? b.content : ''))
      .join('\n');
  }
  return '';
}

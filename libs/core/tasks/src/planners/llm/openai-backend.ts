import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AgentTool } from './agent-tools';
import type { ChatBackend, ModelTurn, ToolCall, ToolResult } from './chat-backend';

export interface OpenAiPlannerConfig {
  /** Any OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama. Default: OpenAI. */
  baseURL?: string;
  model: string;
  /** Local servers often need none. */
  apiKey?: string;
  /** Per request; default 120 s. */
  timeoutMs?: number;
  maxOutputTokens?: number;
}

/** Chat Completions with `tools` / `tool_calls`, through the official `openai` package. */
export function openAiBackend(config: OpenAiPlannerConfig) {
  // Required here, not at the top: the SDK takes ~50 ms to load and only a configured planner needs it.
  const { default: Client } = require('openai') as { default: typeof OpenAI };
  const client = new Client({
    apiKey: config.apiKey || 'not-needed',
    baseURL: config.baseURL,
    timeout: config.timeoutMs ?? 120_000,
    maxRetries: 1,
  });
  return (system: string, firstUserText: string): ChatBackend => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: firstUserText },
    ];
    return {
      async next(signal: AbortSignal, tools: AgentTool[]): Promise<ModelTurn> {
        const toolList: ChatCompletionTool[] = tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        }));
        const completion = await client.chat.completions.create(
          {
            model: config.model,
            messages,
            tools: toolList,
            tool_choice: 'auto',
            ...(config.maxOutputTokens ? { max_tokens: config.maxOutputTokens } : {}),
          },
          { signal },
        );
        const message = completion.choices[0]?.message;
        const calls: ToolCall[] = [];
        for (const call of message?.tool_calls ?? []) {
          if (call.type !== 'function') continue;
          calls.push({ id: call.id, name: call.function.name, ...parseArguments(call.function.arguments) });
        }
        messages.push({
          role: 'assistant',
          content: message?.content ?? null,
          ...(calls.length > 0
            ? {
                tool_calls: (message?.tool_calls ?? []).filter((c) => c.type === 'function'),
              }
            : {}),
        });
        return {
          calls,
          text: message?.content ?? undefined,
          inputTokens: completion.usage?.prompt_tokens ?? 0,
          outputTokens: completion.usage?.completion_tokens ?? 0,
        };
      },
      addToolResults(results: ToolResult[]): void {
        for (const result of results) messages.push({ role: 'tool', tool_call_id: result.id, content: result.content });
      },
      addUserText(text: string): void {
        messages.push({ role: 'user', content: text });
      },
    };
  };
}

function parseArguments(text: string): Pick<ToolCall, 'args' | 'invalid'> {
  if (!text.trim()) return { args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { args: value as Record<string, unknown> };
    return { args: {}, invalid: 'the arguments must be a JSON object' };
  } catch {
    return { args: {}, invalid: 'the arguments are not valid JSON' };
  }
}

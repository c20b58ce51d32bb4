import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { AgentTool } from './agent-tools';
import type { ChatBackend, ModelTurn, ToolCall, ToolResult } from './chat-backend';

export interface AnthropicPlannerConfig {
  apiKey: string;
  model: string;
  /** For tests and proxies; default the SDK's (api.anthropic.com). */
  baseURL?: string;
  /** Per request; default 120 s. */
  timeoutMs?: number;
  /** Default 1024. */
  maxOutputTokens?: number;
}

/** The Messages API with `tools` / `tool_use` blocks, through the official `@anthropic-ai/sdk` package. */
export function anthropicBackend(config: AnthropicPlannerConfig) {
  // Required here, not at the top: the SDK takes ~50 ms to load and only a configured planner needs it.
  const { default: Client } = require('@anthropic-ai/sdk') as { default: typeof Anthropic };
  const client = new Client({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    timeout: config.timeoutMs ?? 120_000,
    maxRetries: 1,
  });
  return (system: string, firstUserText: string): ChatBackend => {
    const messages: MessageParam[] = [{ role: 'user', content: firstUserText }];
    return {
      async next(signal: AbortSignal, tools: AgentTool[]): Promise<ModelTurn> {
        const toolList: Tool[] = tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: tool.parameters as Tool['input_schema'],
        }));
        const response = await client.messages.create(
          { model: config.model, max_tokens: config.maxOutputTokens ?? 1024, system, messages, tools: toolList },
          { signal },
        );
        const calls: ToolCall[] = [];
        const replay: ContentBlockParam[] = [];
        const texts: string[] = [];
        for (const block of response.content) {
          if (block.type === 'text') {
            texts.push(block.text);
            replay.push({ type: 'text', text: block.text });
          } else if (block.type === 'tool_use') {
            const input = block.input;
            const isObject = input !== null && typeof input === 'object' && !Array.isArray(input);
            calls.push(
              isObject
                ? { id: block.id, name: block.name, args: input as Record<string, unknown> }
                : { id: block.id, name: block.name, args: {}, invalid: 'the input must be a JSON object' },
            );
            replay.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
          }
        }
        messages.push({ role: 'assistant', content: replay.length > 0 ? replay : [{ type: 'text', text: '(no reply)' }] });
        return {
          calls,
          text: texts.length > 0 ? texts.join('\n') : undefined,
          inputTokens: response.usage?.input_tokens ?? 0,
          outputTokens: response.usage?.output_tokens ?? 0,
        };
      },
      addToolResults(results: ToolResult[]): void {
        messages.push({
          role: 'user',
          content: results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.content, is_error: r.isError })),
        });
      },
      addUserText(text: string): void {
        const last = messages[messages.length - 1];
        // Consecutive user turns are merged: the API expects user and assistant to alternate.
        if (last?.role === 'user' && Array.isArray(last.content)) last.content.push({ type: 'text', text });
        else messages.push({ role: 'user', content: text });
      },
    };
  };
}

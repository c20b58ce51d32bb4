import type { AgentTool } from './agent-tools';

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments ({} when they could not be read). */
  args: Record<string, unknown>;
  /** Why the arguments could not be read, if so. */
  invalid?: string;
}

export interface ModelTurn {
  calls: ToolCall[];
  text?: string;
  inputTokens: number;
  outputTokens: number;
}

export interface ToolResult {
  id: string;
  content: string;
  isError: boolean;
}

/** One conversation in a provider's wire format; the session above it is provider-neutral. */
export interface ChatBackend {
  /** Sends the conversation so far with the tools this step offers; appends the model's reply to it. */
  next(signal: AbortSignal, tools: AgentTool[]): Promise<ModelTurn>;
  /** Answers every call of the last turn, in order; `then` is more user text after the results. */
  addToolResults(results: ToolResult[]): void;
  addUserText(text: string): void;
}

export interface ChatBackendFactory {
  (system: string, firstUserText: string): ChatBackend;
}

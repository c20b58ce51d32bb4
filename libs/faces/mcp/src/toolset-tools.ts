import { z } from 'zod';
import { ApexError, invalidInput } from '@apex/errors';
import { TOOLSET_DESCRIPTIONS, TOOLSETS, type AnyOperation, type OperationResult, type Toolset } from '@apex/capability';
import type { ListedTool } from './tool-list';

export const LIST_TOOLSETS = 'list_toolsets';
export const ENABLE_TOOLSET = 'enable_toolset';

const toolsetField = z.enum(TOOLSETS);

const listToolsets = {
  name: LIST_TOOLSETS,
  title: 'List toolsets',
  description:
    'The toolsets: what each is for, its tools, whether enabled in this session. A disabled toolset\'s tools are neither listed nor callable until enable_toolset.',
  input: z.strictObject({}),
  output: z.object({
    toolsets: z.array(z.object({ name: toolsetField, description: z.string(), enabled: z.boolean(), tools: z.array(z.string()) })),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} satisfies ListedTool;

const enableToolset = {
  name: ENABLE_TOOLSET,
  title: 'Enable toolset',
  description: "Enables a toolset for this session: its tools join tools/list (tools/list_changed is sent) and can be called.",
  input: z.strictObject({ toolset: toolsetField }),
  output: z.object({ toolset: toolsetField, tools: z.array(z.string()), alreadyEnabled: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} satisfies ListedTool;

export interface ToolsetSessionOptions {
  /** Enabled at the start of the session. */
  toolsets: readonly Toolset[];
  /**
   * Whether the session can widen them (enable_toolset): only when it outlives one request. `onChange` runs
   * after each widening (the server sends notifications/tools/list_changed).
   */
  dynamic: boolean;
  onChange?: () => Promise<void>;
  /** How to get a toolset's tools when the session cannot widen (the transport knows: a flag, a URL parameter). */
  staticHint?: (toolset: Toolset) => string;
}

/**
 * The toolsets one MCP session offers: the tools it lists and lets a client call, and its own two tools
 * (list_toolsets, and enable_toolset when it can widen). Every operation stays reachable over REST.
 */
export class ToolsetSession {
  private readonly enabled: Set<Toolset>;

  constructor(
    private readonly operations: readonly AnyOperation[],
    private readonly options: ToolsetSessionOptions,
  ) {
    this.enabled = new Set(options.toolsets);
  }

  /** tools/list: the enabled operations in catalog order, then the session's own tools. */
  listed(): ListedTool[] {
    return [...this.operations.filter((op) => this.enabled.has(op.toolset)), ...this.ownTools()];
  }

  ownTools(): ListedTool[] {
    return this.options.dynamic ? [listToolsets, enableToolset] : [listToolsets];
  }

  isOwnTool(name: string): boolean {
    return this.ownTools().some((tool) => tool.name === name);
  }

  /** Why `op` cannot be called in this session, or undefined when it can. */
  refusal(op: AnyOperation): ApexError | undefined {
    if (this.enabled.has(op.toolset)) return undefined;
    const how = this.options.dynamic
      ? `Call ${ENABLE_TOOLSET} {"toolset":"${op.toolset}"}, then call ${op.name} again.`
      : (this.options.staticHint?.(op.toolset) ?? `Start Apex with --toolsets default,${op.toolset} (or APEX_TOOLSETS, or mcp.toolsets in the configuration).`);
    return new ApexError('invalid_argument', `The tool ${op.name} is in the toolset "${op.toolset}", which this session has not enabled.`, {
      hint: how,
    });
  }

  /** Runs list_toolsets or enable_toolset: validated like any tool (invalid_argument listing the bad fields). */
  async run(name: string, rawInput: unknown): Promise<OperationResult> {
    if (name === LIST_TOOLSETS) {
      parse(listToolsets, rawInput);
      const toolsets = TOOLSETS.map((toolset) => ({
        name: toolset,
        description: TOOLSET_DESCRIPTIONS[toolset],
        enabled: this.enabled.has(toolset),
        tools: this.toolsOf(toolset),
      })).filter((entry) => entry.tools.length > 0);
      const lines = toolsets.map((t) => `${t.name} (${t.enabled ? 'enabled' : 'not enabled'}): ${t.tools.join(', ')} — ${t.description}`);
      return { output: { toolsets }, summary: lines.join('\n') };
    }
    const { toolset } = parse(enableToolset, rawInput);
    const alreadyEnabled = this.enabled.has(toolset);
    this.enabled.add(toolset);
    const tools = this.toolsOf(toolset);
    if (!alreadyEnabled) await this.options.onChange?.();
    const summary = alreadyEnabled
      ? `The toolset ${toolset} was already enabled: ${tools.join(', ') || 'no tools'}.`
      : `Enabled the toolset ${toolset}: ${tools.join(', ') || 'no tools on this server'}.`;
    return { output: { toolset, tools, alreadyEnabled }, summary };
  }

  private toolsOf(toolset: Toolset): string[] {
    return this.operations.filter((op) => op.toolset === toolset).map((op) => op.name);
  }
}

function parse<T extends ListedTool>(tool: T, rawInput: unknown): z.output<T['input']> {
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    throw invalidInput(parsed.error.issues, `${tool.name} arguments`, `Fix the listed field(s) and call ${tool.name} again.`);
  }
  return parsed.data as z.output<T['input']>;
}

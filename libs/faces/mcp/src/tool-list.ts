import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { inputJsonSchema, toolOutputSchema, type AnyOperation } from '@apex/capability';

/** What a tools/list entry is built from: a catalog operation, or one of the face's own toolset tools. */
export type ListedTool = Pick<AnyOperation, 'name' | 'title' | 'description' | 'input' | 'output' | 'annotations'>;

const cache = new WeakMap<ListedTool, Tool>();

/**
 * The `tools/list` entry of each operation: its strict input schema, output schema and all four annotations.
 * Computed once per operation (the HTTP transport builds a server per request; toolsets list subsets).
 */
export function toolDefinitions(operations: readonly ListedTool[]): Tool[] {
  return operations.map((op) => {
    let tool = cache.get(op);
    if (!tool) {
      tool = toolDefinition(op);
      cache.set(op, tool);
    }
    return tool;
  });
}

function toolDefinition(op: ListedTool): Tool {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: inputJsonSchema(op) as Tool['inputSchema'],
    outputSchema: toolOutputSchema() as Tool['outputSchema'],
    annotations: { ...op.annotations },
  };
}

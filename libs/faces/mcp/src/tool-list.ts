import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { inputJsonSchema, outputJsonSchema, type AnyOperation } from '@apex/capability';

const cache = new WeakMap<readonly AnyOperation[], Tool[]>();

/**
 * The `tools/list` entry of each operation: its strict input schema, output schema and all four annotations.
 * Computed once per catalog (the HTTP transport builds a server per request).
 */
export function toolDefinitions(operations: readonly AnyOperation[]): Tool[] {
  let tools = cache.get(operations);
  if (!tools) {
    tools = operations.map(toolDefinition);
    cache.set(operations, tools);
  }
  return tools;
}

function toolDefinition(op: AnyOperation): Tool {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: inputJsonSchema(op) as Tool['inputSchema'],
    outputSchema: outputJsonSchema(op) as Tool['outputSchema'],
    annotations: { ...op.annotations },
  };
}

import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { MAX_TREE_DEPTH } from '../limits';
import { deviceField } from '../schemas';

/** Nodes are perception's pruned tree; the schema names their fields without repeating them per level. */
const nodeList = z.array(z.record(z.string(), z.unknown()));

interface TreeNode {
  children?: TreeNode[];
}

function countNodes(node: TreeNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + countNodes(child), 0);
}

export const getUiTreeOperation = defineOperation({
  name: 'get_ui_tree',
  title: 'Get UI tree',
  description:
    "The accessibility tree: each element's ref, role, label, value, bounds, center (points). Larger than describe_screen; for structure.",
  input: z.strictObject({
    device: deviceField,
    interactiveOnly: z.boolean().optional().describe('actionable elements and containers'),
    maxDepth: z.number().int().min(0).max(MAX_TREE_DEPTH).optional(),
    format: z.enum(['tree', 'flat']).optional(),
  }),
  output: z.object({
    format: z.enum(['tree', 'flat']),
    root: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('{id, ref, role, label?, value?, placeholder?, bounds, center, disabled?, selected?, focused?, children?}'),
    nodes: nodeList.optional().describe('flat: same, with depth, parentId'),
    nodeCount: z.number(),
    truncated: z.boolean(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'inspect',
  handler: async (ctx, { device, ...options }) => {
    const tree = await ctx.perception.getUiTree(device, options);
    return { ...tree, root: tree.root && { ...tree.root }, nodes: tree.nodes?.map((node) => ({ ...node })) };
  },
  summarize: (t) =>
    `UI tree (${t.format}): ${t.root ? countNodes(t.root as TreeNode) : t.nodeCount} node(s)${t.truncated ? ', cut at maxDepth' : ''}; see the structured result.`,
});

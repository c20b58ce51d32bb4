import type { UiNode } from '@apex/port';

/**
 * One device's last page source and the tree made from it. A screen that has not changed sends the same
 * source, and the same source makes the same tree: reading it again costs a string comparison, not a parse
 * (agents read an unchanged screen again and again: after a no-op action, for find_text, for describe_screen).
 * The tree is frozen, so no reader can change what the next one is given.
 */
export class SourceMemo {
  private last: { source: string; scale: number; tree: UiNode } | undefined;

  /** The tree of `source` (read at `scale`, for sources in pixels), made by `build` only when it differs from the last. */
  treeOf(source: string, scale: number, build: () => UiNode): UiNode {
    const last = this.last;
    if (last && last.scale === scale && last.source === source) return last.tree;
    const tree = deepFreeze(build());
    this.last = { source, scale, tree };
    return tree;
  }
}

function deepFreeze(node: UiNode): UiNode {
  Object.freeze(node.bounds);
  for (const child of node.children) deepFreeze(child);
  Object.freeze(node.children);
  return Object.freeze(node);
}

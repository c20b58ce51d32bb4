import type { Rect, UiNode } from '@apex/port';
import { clipTo } from '../geometry';

export interface VisibleNode {
  node: UiNode;
  /** The node's bounds clipped to the screen. */
  bounds: Rect;
  depth: number;
}

/**
 * Visible nodes with a non-empty part on screen, in document order. A node the driver marks invisible, or
 * wholly off screen (scrolled away), is skipped but its children are still considered: containers are often
 * reported larger or invisible while their content shows.
 */
export function visibleNodes(root: UiNode, screen: Rect): VisibleNode[] {
  const out: VisibleNode[] = [];
  const walk = (node: UiNode, depth: number) => {
    const bounds = clipTo(node.bounds, screen);
    if (node.visible && bounds) out.push({ node, bounds, depth });
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return out;
}

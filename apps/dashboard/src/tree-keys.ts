import type { UiNode } from './types';

/**
 * The page's identity for the nodes of the element tree, kept across re-reads while an element stays the same
 * one: the server's `id` includes the element's position, so a row that moved (the list scrolled) gets a new one,
 * and a tree keyed by it would replace the row under the pointer. This key is the node's role and label and its
 * place among its siblings of the same role and label, under its parent's key.
 */
export function assignKeys(root: UiNode): UiNode {
  root.key = `${root.role}:${root.label ?? ''}`;
  keyChildren(root);
  return root;
}

function keyChildren(node: UiNode): void {
  const seen = new Map<string, number>();
  for (const child of node.children ?? []) {
    const base = `${child.role}:${child.label ?? ''}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    child.key = `${node.key}/${base}#${n}`;
    keyChildren(child);
  }
}

/** The node with `key` in the tree, if it is still there. */
export function findByKey(root: UiNode | undefined, key: string | undefined): UiNode | undefined {
  if (!root || key === undefined) return undefined;
  if (root.key === key) return root;
  for (const child of root.children ?? []) {
    const found = findByKey(child, key);
    if (found) return found;
  }
  return undefined;
}

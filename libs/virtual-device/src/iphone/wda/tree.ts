import type { PhoneElement, RunningApp } from '../model';

/** One element of a snapshot with the links the locators need (parent, sibling index, document order). */
export interface TreeNode {
  element: PhoneElement;
  parent: TreeNode | null;
  /** Position among the parent's children. */
  index: number;
  /** Position in document order (depth-first), for sorting query results. */
  order: number;
  children: TreeNode[];
}

/** A snapshot of the foreground app, with the app's process facts and a uid → node index. */
export interface UiTree {
  root: TreeNode;
  app: RunningApp;
  byUid: Map<string, TreeNode>;
}

export function buildTree(snapshot: PhoneElement, app: RunningApp): UiTree {
  const byUid = new Map<string, TreeNode>();
  let order = 0;
  const visit = (element: PhoneElement, parent: TreeNode | null, index: number): TreeNode => {
    const node: TreeNode = { element, parent, index, order: order++, children: [] };
    if (!byUid.has(element.uid)) byUid.set(element.uid, node);
    node.children = element.children.map((child, i) => visit(child, node, i));
    return node;
  };
  return { root: visit(snapshot, null, 0), app, byUid };
}

/** The node and all its descendants, depth-first. */
export function* selfAndDescendants(node: TreeNode): Generator<TreeNode> {
  yield node;
  for (const child of node.children) yield* selfAndDescendants(child);
}

export function* descendants(node: TreeNode): Generator<TreeNode> {
  for (const child of node.children) yield* selfAndDescendants(child);
}

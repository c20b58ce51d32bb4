import { isInteractive, type Rect, type UiNode } from '@apex/port';
import { clipTo, roundedCenter, roundRect } from '../geometry';
import type { FlatUiNode, UiTreeNode, UiTreeResult } from '../types';
import { STRUCTURAL_ROLES, WRAPPER_ROLES } from './roles';

export interface PruneOptions {
  interactiveOnly?: boolean;
  maxDepth?: number;
  format?: 'tree' | 'flat';
  /** Names each node with its element ref. */
  refOf?: (node: UiNode) => string | undefined;
}

const DERIVED_LABEL_MAX_CHARS = 80;

/**
 * The normalized tree made compact for a model: nodes invisible or off screen dropped, text-less wrappers
 * with one child replaced by that child and with none removed, bounds clipped to the screen. With
 * `interactiveOnly`, only actionable nodes and the containers holding them remain; an actionable node without
 * a label takes one from the text it contained.
 */
export function pruneUiTree(root: UiNode, screen: Rect, options: PruneOptions = {}): UiTreeResult {
  const interactiveOnly = options.interactiveOnly ?? false;
  const refOf = options.refOf ?? (() => undefined);
  const pruned = pruneNode(root, screen, interactiveOnly, refOf, true);
  let top: UiTreeNode;
  if (pruned.length === 1) top = pruned[0];
  else top = { ...toTreeNode(root, clipTo(root.bounds, screen) ?? root.bounds, refOf), children: pruned };

  let truncated = false;
  if (options.maxDepth !== undefined) {
    const cut = cutDepth(top, 0, Math.max(0, Math.floor(options.maxDepth)));
    top = cut.node;
    truncated = cut.truncated;
  }
  if (options.format === 'flat') {
    const nodes = flatten(top);
    return { format: 'flat', nodes, nodeCount: nodes.length, truncated };
  }
  return { format: 'tree', root: top, nodeCount: countNodes(top), truncated };
}

type RefOf = (node: UiNode) => string | undefined;

function pruneNode(node: UiNode, screen: Rect, interactiveOnly: boolean, refOf: RefOf, isRoot = false): UiTreeNode[] {
  const children = node.children.flatMap((child) => pruneNode(child, screen, interactiveOnly, refOf));
  const bounds = clipTo(node.bounds, screen);
  if (!isRoot && (!node.visible || !bounds)) return children;
  const self = toTreeNode(node, bounds ?? node.bounds, refOf);

  if (interactiveOnly) {
    if (isInteractive(node.role)) {
      if (!self.label) {
        const derived = descendantText(node);
        if (derived) self.label = derived;
      }
      return [withChildren(self, children)];
    }
    if (isRoot || (STRUCTURAL_ROLES.has(node.role) && children.length > 0)) return [withChildren(self, children)];
    return children;
  }

  const hasText = Boolean(self.label || self.value || self.placeholder);
  if (!isRoot && !hasText && WRAPPER_ROLES.has(node.role) && children.length <= 1) return children;
  return [withChildren(self, children)];
}

function withChildren(node: UiTreeNode, children: UiTreeNode[]): UiTreeNode {
  return children.length > 0 ? { ...node, children } : node;
}

function toTreeNode(node: UiNode, bounds: Rect, refOf: RefOf): UiTreeNode {
  const ref = refOf(node);
  const out: UiTreeNode = { id: node.id, ...(ref === undefined ? {} : { ref }), role: node.role, bounds: roundRect(bounds), center: roundedCenter(bounds) };
  if (node.label) out.label = node.label;
  if (node.value) out.value = node.value;
  if (node.placeholder) out.placeholder = node.placeholder;
  if (!node.enabled) out.disabled = true;
  if (node.selected) out.selected = true;
  if (node.focused) out.focused = true;
  return out;
}

/** The labels of the text nodes inside, joined: an unlabeled cell "Wi-Fi" + "Home" → "Wi-Fi, Home". */
export function descendantText(node: UiNode): string | undefined {
  const parts: string[] = [];
  const walk = (n: UiNode) => {
    if (n !== node && n.visible && (n.role === 'text' || n.role === 'link') && (n.label || n.value)) {
      parts.push((n.label || n.value) as string);
    }
    n.children.forEach(walk);
  };
  walk(node);
  const joined = [...new Set(parts)].join(', ');
  if (!joined) return undefined;
  return joined.length > DERIVED_LABEL_MAX_CHARS ? `${joined.slice(0, DERIVED_LABEL_MAX_CHARS - 1)}…` : joined;
}

function cutDepth(node: UiTreeNode, depth: number, maxDepth: number): { node: UiTreeNode; truncated: boolean } {
  if (!node.children) return { node, truncated: false };
  if (depth >= maxDepth) {
    const { children: _dropped, ...rest } = node;
    void _dropped;
    return { node: rest, truncated: true };
  }
  let truncated = false;
  const children = node.children.map((child) => {
    const cut = cutDepth(child, depth + 1, maxDepth);
    truncated ||= cut.truncated;
    return cut.node;
  });
  return { node: { ...node, children }, truncated };
}

function flatten(root: UiTreeNode): FlatUiNode[] {
  const out: FlatUiNode[] = [];
  const walk = (node: UiTreeNode, depth: number, parentId?: string) => {
    const { children, ...rest } = node;
    out.push(parentId === undefined ? { ...rest, depth } : { ...rest, depth, parentId });
    for (const child of children ?? []) walk(child, depth + 1, node.id);
  };
  walk(root, 0);
  return out;
}

function countNodes(node: UiTreeNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + countNodes(child), 0);
}

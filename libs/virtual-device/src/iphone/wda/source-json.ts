import type { PhoneElement } from '../model';
import { frameString, integralRect, wdLabel, wdName, wdTraits, wdValue } from './attributes';
import type { TreeNode } from './tree';

/** The JSON page source with WDA's keys (WDA:Categories/XCUIApplication+FBHelpers.m `fb_tree`). */
export interface JsonSourceNode {
  [key: string]: unknown;
}

const flag = (value: boolean) => (value ? '1' : '0');

function jsonAttributes(element: PhoneElement): JsonSourceNode {
  const rect = integralRect(element.rect);
  return {
    type: element.type,
    rawIdentifier: element.identifier ? element.identifier : null,
    name: wdName(element),
    value: wdValue(element),
    label: wdLabel(element),
    rect,
    frame: frameString(rect),
    isEnabled: flag(element.enabled),
    isVisible: flag(element.visible),
    isAccessible: flag(element.accessible),
    isFocused: flag(element.focused),
    traits: wdTraits(element),
  };
}

export function jsonSource(node: TreeNode, excluded: ReadonlySet<string> = new Set(), maxDepth = Infinity): JsonSourceNode {
  const build = (current: TreeNode, depth: number): JsonSourceNode => {
    const result = jsonAttributes(current.element);
    for (const name of excluded) delete result[name];
    if (current.children.length > 0 && depth + 1 < maxDepth) {
      result['children'] = current.children.map((child) => build(child, depth + 1));
    }
    return result;
  };
  return build(node, 0);
}

/**
 * `/wda/accessibleSource`: only accessible elements, each with the accessible elements below it
 * (inaccessible containers are skipped over, their accessible descendants kept).
 */
export function accessibleSource(node: TreeNode): JsonSourceNode {
  const collect = (current: TreeNode): JsonSourceNode[] =>
    current.children.flatMap((child) => {
      if (!child.element.accessible) return collect(child);
      return [withChildren(child)];
    });
  const withChildren = (current: TreeNode): JsonSourceNode => {
    const { type, name, value, label, rect } = jsonAttributes(current.element);
    const result: JsonSourceNode = { type, name, value, label, rect };
    const children = collect(current);
    if (children.length > 0) result['children'] = children;
    return result;
  };
  return withChildren(node);
}

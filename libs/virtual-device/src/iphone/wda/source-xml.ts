import { integralRect, wdLabel, wdName, wdPlaceholder, wdTraits, wdType, wdValue, isTextInput } from './attributes';
import type { TreeNode, UiTree } from './tree';

/**
 * The XML page source as WDA writes it (WDA:Utilities/FBXPath.m): an `AppiumAUT` root, one element per node
 * named by its XCUIElementType, attributes in WDA's order, nil attributes omitted.
 */

export type XmlAttribute = readonly [name: string, value: string];

/** The attributes of one node, in WDA's order. The Application element also gets processId and bundleId. */
export function xmlAttributes(node: TreeNode, tree: UiTree): XmlAttribute[] {
  const element = node.element;
  const rect = integralRect(element.rect);
  const attributes: XmlAttribute[] = [['type', wdType(element)]];
  const optional = (name: string, value: string | null) => {
    if (value !== null) attributes.push([name, value]);
  };
  optional('value', wdValue(element));
  optional('name', wdName(element));
  optional('label', wdLabel(element));
  attributes.push(
    ['enabled', String(element.enabled)],
    ['visible', String(element.visible)],
    ['accessible', String(element.accessible)],
    ['x', String(rect.x)],
    ['y', String(rect.y)],
    ['width', String(rect.width)],
    ['height', String(rect.height)],
    ['index', String(node.index)],
  );
  if (isTextInput(element.type)) optional('placeholderValue', wdPlaceholder(element));
  attributes.push(['traits', wdTraits(element)]);
  if (node === tree.root && element.type === 'Application') {
    attributes.push(['processId', String(tree.app.pid)], ['bundleId', tree.app.bundleId]);
  }
  return attributes;
}

/** XML's special characters plus the control characters XML 1.0 forbids. */
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[&<>"'\n\r\t]|[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

export function escapeXml(text: string): string {
  return text.replace(XML_SPECIAL, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case "'":
        return '&apos;';
      case '\n':
        return '&#10;';
      case '\r':
        return '&#13;';
      case '\t':
        return '&#9;';
      default:
        return ''; // control characters are not allowed in XML 1.0
    }
  });
}

export interface XmlSourceOptions {
  /** Root tag wrapping the tree (WDA's `scope` query parameter); default `AppiumAUT`. */
  scope?: string;
  excludedAttributes?: ReadonlySet<string>;
  maxDepth?: number;
}

export function xmlSource(tree: UiTree, options: XmlSourceOptions = {}): string {
  const scope = options.scope && /^[A-Za-z_][\w.-]*$/.test(options.scope) ? options.scope : 'AppiumAUT';
  const excluded = options.excludedAttributes ?? new Set<string>();
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n', `<${scope}>\n`];
  const write = (node: TreeNode, depth: number) => {
    const indent = '  '.repeat(depth + 1);
    const tag = wdType(node.element);
    let open = `${indent}<${tag}`;
    for (const [name, value] of xmlAttributes(node, tree)) {
      if (!excluded.has(name)) open += ` ${name}="${escapeXml(value)}"`;
    }
    const children = depth + 1 < maxDepth ? node.children : [];
    if (children.length === 0) {
      out.push(`${open}/>\n`);
      return;
    }
    out.push(`${open}>\n`);
    for (const child of children) write(child, depth + 1);
    out.push(`${indent}</${tag}>\n`);
  };
  write(tree.root, 0);
  out.push(`</${scope}>\n`);
  return out.join('');
}

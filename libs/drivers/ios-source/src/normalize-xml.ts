import { TEXT_INPUT_ROLES, type Rect, type Role, type UiNode } from '@apex/port';
import { ElementIds } from './element-id';
import { roleOf } from './roles';
import { nonEmpty, readXmlSource, unreadableSource, type XmlAttributes, type XmlNode } from './xml-reader';

/** Roles whose value falls back to the placeholder in the source. */

function numberAttr(attrs: XmlAttributes, name: string): number {
  const value = Number(attrs[name]);
  return Number.isFinite(value) ? value : 0;
}

function boolAttr(attrs: XmlAttributes, name: string, fallback: boolean): boolean {
  const value = attrs[name];
  if (value === undefined) return fallback;
  return value === 'true' || value === '1';
}

/**
 * Undoes the source's value fallbacks: a static text's value repeats its label, an empty text input's value
 * repeats its placeholder. A secure field's value is never exposed. Switches read "on"/"off".
 */
function valueFor(role: Role, raw: string | undefined, label: string | undefined, placeholder: string | undefined): string | undefined {
  const value = nonEmpty(raw);
  if (value === undefined) return undefined;
  switch (role) {
    case 'secureTextField':
      return undefined;
    case 'text':
      return value === label ? undefined : value;
    case 'switch':
      return value === '1' ? 'on' : value === '0' ? 'off' : value;
    default:
      if (TEXT_INPUT_ROLES.has(role) && value === placeholder) return undefined;
      return value;
  }
}

function toUiNode(node: XmlNode, tag: string, indexPath: number[], ids: ElementIds): UiNode {
  const attrs = node.attrs;
  const role = roleOf(attrs.type ?? tag);
  const label = nonEmpty(attrs.label);
  const placeholder = TEXT_INPUT_ROLES.has(role) ? nonEmpty(attrs.placeholderValue) : undefined;
  const bounds: Rect = {
    x: numberAttr(attrs, 'x'),
    y: numberAttr(attrs, 'y'),
    width: numberAttr(attrs, 'width'),
    height: numberAttr(attrs, 'height'),
  };
  const traits = (attrs.traits ?? '').split(',').map((t) => t.trim());
  const children = node.children.map((child, index) => toUiNode(child, child.tag, [...indexPath, index], ids));
  const result: UiNode = {
    id: ids.of(role, bounds, label, indexPath),
    role,
    bounds,
    enabled: boolAttr(attrs, 'enabled', true),
    visible: boolAttr(attrs, 'visible', true),
    selected: traits.includes('Selected') || boolAttr(attrs, 'selected', false),
    focused: boolAttr(attrs, 'focused', false),
    children,
  };
  if (label !== undefined) result.label = label;
  const value = valueFor(role, attrs.value, label, placeholder);
  if (value !== undefined) result.value = value;
  if (placeholder !== undefined) result.placeholder = placeholder;
  return result;
}

/** The screen's XML source → the neutral tree rooted at the application element. */
export function normalizeXmlSource(xml: string, deviceId: string): UiNode {
  // The root is either the element itself or a wrapper such as <AppiumAUT>.
  let candidates = readXmlSource(xml, deviceId);
  for (let depth = 0; depth < 3; depth += 1) {
    const element = candidates.find((n) => n.tag.startsWith('XCUIElementType'));
    if (element) return toUiNode(element, element.tag, [], new ElementIds());
    candidates = candidates.flatMap((n) => n.children);
  }
  throw unreadableSource(deviceId, new Error('no element in the source'));
}

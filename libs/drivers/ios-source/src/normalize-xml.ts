import { ApexError } from '@apex/errors';
import type { Rect, Role, UiNode } from '@apex/port';
import { XMLParser } from 'fast-xml-parser';
import { elementId } from './element-id';
import { roleOf } from './roles';

type Attributes = Record<string, string>;
/** fast-xml-parser's `preserveOrder` shape: `{ [tag]: children, ':@'?: attributes }`. */
type OrderedNode = Record<string, unknown> & { ':@'?: Attributes };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  // Decodes numeric character references too (a newline in an attribute arrives as &#10;).
  htmlEntities: true,
});

/** Roles whose value falls back to the placeholder in the source. */
const TEXT_INPUTS = new Set<Role>(['textField', 'secureTextField', 'searchField']);

function tagOf(node: OrderedNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@' && key !== '#text' && !key.startsWith('?'));
}

function childrenOf(node: OrderedNode, tag: string): OrderedNode[] {
  const children = node[tag];
  return Array.isArray(children) ? (children as OrderedNode[]).filter((c) => tagOf(c) !== undefined) : [];
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function numberAttr(attrs: Attributes, name: string): number {
  const value = Number(attrs[name]);
  return Number.isFinite(value) ? value : 0;
}

function boolAttr(attrs: Attributes, name: string, fallback: boolean): boolean {
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
      if (TEXT_INPUTS.has(role) && value === placeholder) return undefined;
      return value;
  }
}

class IdAllocator {
  private readonly used = new Set<string>();

  /** The 6-character id, lengthened only if another element of this screen already has it. */
  allocate(fullHash: string): string {
    for (const length of [6, 8, 10, 12]) {
      const id = fullHash.slice(0, length);
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
    let n = 2;
    while (this.used.has(`${fullHash.slice(0, 12)}-${n}`)) n += 1;
    const id = `${fullHash.slice(0, 12)}-${n}`;
    this.used.add(id);
    return id;
  }
}

function toUiNode(node: OrderedNode, tag: string, indexPath: number[], ids: IdAllocator): UiNode {
  const attrs = node[':@'] ?? {};
  const role = roleOf(attrs.type ?? tag);
  const label = nonEmpty(attrs.label);
  const placeholder = TEXT_INPUTS.has(role) ? nonEmpty(attrs.placeholderValue) : undefined;
  const bounds: Rect = {
    x: numberAttr(attrs, 'x'),
    y: numberAttr(attrs, 'y'),
    width: numberAttr(attrs, 'width'),
    height: numberAttr(attrs, 'height'),
  };
  const traits = (attrs.traits ?? '').split(',').map((t) => t.trim());
  const children = childrenOf(node, tag).map((child, index) =>
    toUiNode(child, tagOf(child) as string, [...indexPath, index], ids),
  );
  const result: UiNode = {
    id: ids.allocate(elementId(role, bounds, label, indexPath)),
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

function unreadable(deviceId: string, cause: unknown): ApexError {
  return new ApexError('device_error', `Device ${deviceId} described its screen in a form that could not be read.`, {
    hint: 'Retry; the screen may have been changing.',
    cause,
  });
}

/** The screen's XML source → the neutral tree rooted at the application element. */
export function normalizeXmlSource(xml: string, deviceId: string): UiNode {
  let document: OrderedNode[];
  try {
    document = parser.parse(xml, true) as OrderedNode[];
  } catch (error) {
    throw unreadable(deviceId, error);
  }
  // The root is either the element itself or a wrapper such as <AppiumAUT>.
  let candidates = document.filter((n) => tagOf(n) !== undefined);
  for (let depth = 0; depth < 3; depth += 1) {
    const element = candidates.find((n) => (tagOf(n) as string).startsWith('XCUIElementType'));
    if (element) return toUiNode(element, tagOf(element) as string, [], new IdAllocator());
    candidates = candidates.flatMap((n) => childrenOf(n, tagOf(n) as string));
  }
  throw unreadable(deviceId, new Error('no element in the source'));
}

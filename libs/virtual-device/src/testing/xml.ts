import { XMLParser } from 'fast-xml-parser';

export interface XmlElement {
  tag: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

/** Parses XML strictly (fast-xml-parser, preserve order) into a simple element tree. */
export function parseXml(xml: string): XmlElement {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true, parseAttributeValue: false });
  type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };
  const convert = (node: Ordered): XmlElement | null => {
    const tag = Object.keys(node).find((key) => key !== ':@');
    if (!tag || tag.startsWith('?')) return null;
    const children = ((node[tag] as Ordered[]) ?? []).map(convert).filter((c): c is XmlElement => c !== null);
    return { tag, attributes: node[':@'] ?? {}, children };
  };
  const top = (parser.parse(xml) as Ordered[]).map(convert).filter((c): c is XmlElement => c !== null);
  if (top.length !== 1) throw new Error(`expected one root element, got ${top.length}`);
  return top[0] as XmlElement;
}

export function* walk(element: XmlElement): Generator<XmlElement> {
  yield element;
  for (const child of element.children) yield* walk(child);
}

/** Raw attribute names of every element start tag, in document order (to check WDA's attribute order). */
export function attributeOrders(xml: string): string[][] {
  return [...xml.matchAll(/<XCUIElementType\w+((?:\s+\w+="[^"]*")*)\s*\/?>/g)].map((m) =>
    [...(m[1] as string).matchAll(/(\w+)="/g)].map((a) => a[1] as string),
  );
}

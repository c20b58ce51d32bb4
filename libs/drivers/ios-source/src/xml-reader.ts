import { ApexError } from '@apex/errors';
import type { XMLParser } from 'fast-xml-parser';

export type XmlAttributes = Record<string, string>;
/** fast-xml-parser's `preserveOrder` shape: `{ [tag]: children, ':@'?: attributes }`. */
export type XmlNode = Record<string, unknown> & { ':@'?: XmlAttributes };

let reader: XMLParser | undefined;

/**
 * One reader for every page source (iOS and Android): attributes as plain strings, document order kept. Made (and
 * fast-xml-parser required) on the first page source, not at start-up.
 */
function parser(): XMLParser {
  if (!reader) {
    const { XMLParser: Parser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
    reader = new Parser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      preserveOrder: true,
      parseAttributeValue: false,
      parseTagValue: false,
      trimValues: true,
      // Decodes numeric character references too (a newline in an attribute arrives as &#10;).
      htmlEntities: true,
    });
  }
  return reader;
}

export function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@' && key !== '#text' && !key.startsWith('?'));
}

/** The element children (text and processing instructions left out). */
export function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const children = tag ? node[tag] : undefined;
  return Array.isArray(children) ? (children as XmlNode[]).filter((c) => tagOf(c) !== undefined) : [];
}

export function attributesOf(node: XmlNode): XmlAttributes {
  return node[':@'] ?? {};
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A source that cannot be read, as the one error both drivers give for it. */
export function unreadableSource(deviceId: string, cause: unknown): ApexError {
  return new ApexError('device_error', `Device ${deviceId} described its screen in a form that could not be read.`, {
    hint: 'Retry; the screen may have been changing.',
    cause,
  });
}

/** The page source's top-level elements; an unparsable source is `device_error`. */
export function readXmlSource(xml: string, deviceId: string): XmlNode[] {
  let document: XmlNode[];
  try {
    document = parser().parse(xml, true) as XmlNode[];
  } catch (error) {
    throw unreadableSource(deviceId, error);
  }
  return document.filter((n) => tagOf(n) !== undefined);
}

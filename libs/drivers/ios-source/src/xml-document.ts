/**
 * A small, strict XML reader for page sources (WebDriverAgent's and the Android hierarchy dump): elements and
 * their attributes in document order, nothing else kept. One linear pass with `indexOf`, no intermediate
 * objects: a general-purpose parser (fast-xml-parser) spent several times the HTTP round trip on a screen's
 * source. Well-formedness is checked as it reads (tags closed in order, one value per attribute, quoted values
 * without `<`, nothing left open); anything else is an `XmlSyntaxError` with the offset.
 */

export type XmlAttributes = Record<string, string>;

export interface XmlElement {
  tag: string;
  attrs: XmlAttributes;
  children: XmlElement[];
}

export class XmlSyntaxError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references; `&` not starting one is an error. */
function decodeEntities(raw: string, offset: number): string {
  let out = '';
  let from = 0;
  for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
    const semi = raw.indexOf(';', amp);
    if (semi === -1 || semi - amp > 12) throw new XmlSyntaxError('An unterminated entity', offset + amp);
    const name = raw.slice(amp + 1, semi);
    let decoded: string | undefined;
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      if (Number.isInteger(code) && code >= 0 && code <= 0x10ffff) decoded = String.fromCodePoint(code);
    } else {
      decoded = NAMED_ENTITIES[name];
    }
    if (decoded === undefined) throw new XmlSyntaxError(`An unknown entity &${name};`, offset + amp);
    out += raw.slice(from, amp) + decoded;
    from = semi + 1;
  }
  return out + raw.slice(from);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The end of a name starting at `i` (a name runs up to whitespace, `/`, `>` or `=`). */
function nameEnd(xml: string, i: number): number {
  let j = i;
  for (; j < xml.length; j += 1) {
    const c = xml.charCodeAt(j);
    if (isSpace(c) || c === 0x2f /* / */ || c === 0x3e /* > */ || c === 0x3d /* = */) break;
  }
  return j;
}

function skipSpace(xml: string, i: number): number {
  let j = i;
  while (j < xml.length && isSpace(xml.charCodeAt(j))) j += 1;
  return j;
}

/** `xml.indexOf(token, from)`, or an error naming what was left open. */
function expect(xml: string, token: string, from: number, what: string): number {
  const at = xml.indexOf(token, from);
  if (at === -1) throw new XmlSyntaxError(`An unterminated ${what}`, from);
  return at;
}

/** The top-level elements of a document (declarations, comments, doctype and text between elements skipped). */
export function parseXml(xml: string): XmlElement[] {
  const top: XmlElement[] = [];
  const open: XmlElement[] = [];
  let i = 0;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x3f /* ? */) {
      i = expect(xml, '?>', lt + 2, 'processing instruction') + 2;
    } else if (next === 0x21 /* ! */) {
      if (xml.startsWith('<!--', lt)) i = expect(xml, '-->', lt + 4, 'comment') + 3;
      else if (xml.startsWith('<![CDATA[', lt)) i = expect(xml, ']]>', lt + 9, 'CDATA section') + 3;
      else i = expect(xml, '>', lt + 2, 'declaration') + 1;
    } else if (next === 0x2f /* / */) {
      const end = nameEnd(xml, lt + 2);
      const tag = xml.slice(lt + 2, end);
      const gt = skipSpace(xml, end);
      if (xml.charCodeAt(gt) !== 0x3e) throw new XmlSyntaxError(`A malformed closing tag </${tag}`, lt);
      const element = open.pop();
      if (!element || element.tag !== tag) throw new XmlSyntaxError(`</${tag}> closes ${element ? `<${element.tag}>` : 'nothing'}`, lt);
      i = gt + 1;
    } else {
      i = readStartTag(xml, lt, open, top);
    }
  }
  const unclosed = open.pop();
  if (unclosed) throw new XmlSyntaxError(`<${unclosed.tag}> is never closed`, xml.length);
  return top;
}

/** Reads `<tag attr="…" …>` or `<tag …/>` at `lt`, attaches the element, and returns the offset after it. */
function readStartTag(xml: string, lt: number, open: XmlElement[], top: XmlElement[]): number {
  const end = nameEnd(xml, lt + 1);
  if (end === lt + 1) throw new XmlSyntaxError('A tag without a name', lt);
  // No prototype: an attribute named `__proto__` or `constructor` is just an attribute.
  const element: XmlElement = { tag: xml.slice(lt + 1, end), attrs: Object.create(null) as XmlAttributes, children: [] };
  (open[open.length - 1]?.children ?? top).push(element);
  let i = end;
  for (;;) {
    const at = skipSpace(xml, i);
    const c = xml.charCodeAt(at);
    if (c === 0x3e /* > */) {
      open.push(element);
      return at + 1;
    }
    if (c === 0x2f /* / */) {
      if (xml.charCodeAt(at + 1) !== 0x3e) throw new XmlSyntaxError(`A malformed tag <${element.tag}`, at);
      return at + 2;
    }
    if (Number.isNaN(c)) throw new XmlSyntaxError(`An unterminated tag <${element.tag}`, lt);
    if (at === i) throw new XmlSyntaxError(`Attributes of <${element.tag}> must be separated by spaces`, at);
    i = readAttribute(xml, at, element);
  }
}

/** Reads `name="value"` (or single quotes) at `i` into the element; returns the offset after the closing quote. */
function readAttribute(xml: string, i: number, element: XmlElement): number {
  const end = nameEnd(xml, i);
  const name = xml.slice(i, end);
  const eq = skipSpace(xml, end);
  if (name === '' || xml.charCodeAt(eq) !== 0x3d) throw new XmlSyntaxError(`A malformed attribute in <${element.tag}>`, i);
  const open = skipSpace(xml, eq + 1);
  const quote = xml[open];
  if (quote !== '"' && quote !== "'") throw new XmlSyntaxError(`An unquoted attribute ${name} in <${element.tag}>`, open);
  const close = expect(xml, quote, open + 1, `attribute ${name}`);
  const raw = xml.slice(open + 1, close);
  if (raw.includes('<')) throw new XmlSyntaxError(`A "<" inside attribute ${name}`, open);
  if (Object.prototype.hasOwnProperty.call(element.attrs, name)) throw new XmlSyntaxError(`Attribute ${name} given twice`, i);
  // Values are trimmed, as the sources' own readers do: a label is never padded with spaces on screen.
  element.attrs[name] = (raw.includes('&') ? decodeEntities(raw, open + 1) : raw).trim();
  return close + 1;
}

import fc from 'fast-check';
import { parseXml, XmlSyntaxError } from './xml-document';

describe('parseXml', () => {
  it('reads elements, attributes and nesting in document order, skipping declarations, comments and text', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE x><!-- a -->\n<a x="1" y='two'>\n  <b/>\n  text\n  <c z="3"><d /></c>\n</a>\n`;
    expect(parseXml(xml)).toEqual([
      {
        tag: 'a',
        attrs: { x: '1', y: 'two' },
        children: [
          { tag: 'b', attrs: {}, children: [] },
          { tag: 'c', attrs: { z: '3' }, children: [{ tag: 'd', attrs: {}, children: [] }] },
        ],
      },
    ]);
  });

  it('decodes the XML entities and character references in attribute values, and trims them', () => {
    const [a] = parseXml(`<a v="&lt;b&gt; &amp; &quot;q&quot; &apos;s&apos;" n="line&#10;two &#x263A;" t="  padded  "/>`);
    expect(a?.attrs).toEqual({ v: `<b> & "q" 's'`, n: 'line\ntwo ☺', t: 'padded' });
  });

  it('keeps an attribute named like an Object member as an attribute', () => {
    const [a] = parseXml(`<a __proto__="x" constructor="y"/>`);
    expect(a?.attrs['__proto__']).toBe('x');
    expect(a?.attrs['constructor']).toBe('y');
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it.each([
    ['an unclosed element', '<a><b></b>'],
    ['a mismatched closing tag', '<a><b></a></b>'],
    ['a stray closing tag', '</a>'],
    ['an unterminated tag', '<a x="1"'],
    ['an unquoted attribute', '<a x=1/>'],
    ['an attribute without a value', '<a x/>'],
    ['a duplicated attribute', '<a x="1" x="2"/>'],
    ['attributes run together', '<a x="1"y="2"/>'],
    ['a "<" in an attribute', '<a x="<"/>'],
    ['an unknown entity', '<a x="&nbsp;"/>'],
    ['a bare ampersand', '<a x="fish & chips"/>'],
    ['an unterminated comment', '<a><!-- </a>'],
    ['a tag without a name', '<a>< /></a>'],
  ])('refuses %s', (_, xml) => {
    expect(() => parseXml(xml)).toThrow(XmlSyntaxError);
  });

  it('never throws anything but XmlSyntaxError, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('<', '>', '/', '=', '"', "'", '&', ';', '#', 'a', ' ', '!', '?', '-', 'x') }), (xml) => {
        try {
          parseXml(xml);
        } catch (error) {
          expect(error).toBeInstanceOf(XmlSyntaxError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

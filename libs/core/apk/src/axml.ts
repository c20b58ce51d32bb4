import { ApkError } from './apk-error';
import { chunkAt, chunksIn, RES, StringPool, VALUE } from './res-chunks';

/*
 * Android's binary XML (AXML), as aapt2 writes AndroidManifest.xml into an APK: an XML chunk holding a string
 * pool, a resource map (the attribute ids of `android:` names) and start/end element chunks whose attributes
 * carry typed values (ResourceTypes.h `ResXMLTree_attrExt`, `ResXMLTree_attribute`, `Res_value`).
 */

/** A typed attribute value: a string, a number, a boolean, or a reference to a resource (`@string/app_name`). */
export type AxmlValue = { kind: 'string'; value: string } | { kind: 'number'; value: number } | { kind: 'boolean'; value: boolean } | { kind: 'reference'; id: number };

export interface AxmlAttribute {
  /** The local name (`label`), or '' when the build stripped it and only `resourceId` names it. */
  name: string;
  /** The attribute's resource id for `android:` attributes (0x01010001 = label…), else 0. */
  resourceId: number;
  value: AxmlValue;
}

export interface AxmlElement {
  name: string;
  attributes: AxmlAttribute[];
  children: AxmlElement[];
}

/** Elements nested deeper than this are not a manifest. */
const MAX_DEPTH = 64;
/** Elements in one manifest (a large app's has a few thousand). */
const MAX_ELEMENTS = 200_000;
const NO_INDEX = 0xffffffff;

export function parseAxml(data: Buffer): AxmlElement {
  const file = chunkAt(data, 0);
  if (file.type !== RES.XML) throw new ApkError('its manifest is not binary XML');
  let pool: StringPool | undefined;
  let resourceIds: number[] = [];
  const root: AxmlElement = { name: '', attributes: [], children: [] };
  const stack: AxmlElement[] = [root];
  let elements = 0;
  for (const chunk of chunksIn(data, file.start + file.headerSize, file.end)) {
    const body = chunk.start + chunk.headerSize;
    switch (chunk.type) {
      case RES.STRING_POOL:
        pool = new StringPool(data, chunk);
        break;
      case RES.XML_RESOURCE_MAP:
        resourceIds = [];
        for (let p = body; p + 4 <= chunk.end; p += 4) resourceIds.push(data.readUInt32LE(p));
        break;
      case RES.XML_START_ELEMENT: {
        if (!pool) throw new ApkError('its manifest has no string table');
        if (++elements > MAX_ELEMENTS || stack.length > MAX_DEPTH) throw new ApkError('its manifest is too large or too deeply nested');
        if (body + 20 > chunk.end) throw new ApkError('its manifest is damaged');
        const nameIndex = data.readUInt32LE(body + 4);
        const attributeStart = data.readUInt16LE(body + 8);
        const attributeSize = data.readUInt16LE(body + 10);
        const attributeCount = data.readUInt16LE(body + 12);
        if (attributeSize < 20 || body + attributeStart + attributeCount * attributeSize > chunk.end) throw new ApkError('its manifest is damaged');
        const element: AxmlElement = { name: pool.get(nameIndex) ?? '', attributes: [], children: [] };
        for (let i = 0; i < attributeCount; i++) {
          const a = body + attributeStart + i * attributeSize;
          const nameIdx = data.readUInt32LE(a + 4);
          const raw = data.readUInt32LE(a + 8);
          const type = data.readUInt8(a + 15);
          const value = data.readUInt32LE(a + 16);
          element.attributes.push({ name: pool.get(nameIdx) ?? '', resourceId: resourceIds[nameIdx] ?? 0, value: typedValue(pool, type, value, raw) });
        }
        stack[stack.length - 1].children.push(element);
        stack.push(element);
        break;
      }
      case RES.XML_END_ELEMENT:
        if (stack.length > 1) stack.pop();
        break;
      default:
        break; // namespaces, CDATA: nothing a manifest reader needs
    }
  }
  const top = root.children[0];
  if (!top) throw new ApkError('its manifest has no elements');
  return top;
}

function typedValue(pool: StringPool, type: number, data: number, raw: number): AxmlValue {
  switch (type) {
    case VALUE.STRING:
      return { kind: 'string', value: pool.get(data) ?? '' };
    case VALUE.REFERENCE:
      return { kind: 'reference', id: data };
    case VALUE.BOOLEAN:
      return { kind: 'boolean', value: data !== 0 };
    case VALUE.INT_DEC:
    case VALUE.INT_HEX:
      return { kind: 'number', value: data | 0 };
    default:
      return raw !== NO_INDEX ? { kind: 'string', value: pool.get(raw) ?? '' } : { kind: 'number', value: data | 0 };
  }
}

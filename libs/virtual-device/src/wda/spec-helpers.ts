import { Image, createCanvas } from '@napi-rs/canvas';
import { XMLParser } from 'fast-xml-parser';

/** Test-only helpers: a minimal WDA HTTP client over global fetch, PNG pixel access and XML parsing. */

export interface WdaReply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export class WdaHttp {
  sessionId = '';

  constructor(readonly base: string) {}

  async call(method: string, path: string, body?: unknown): Promise<WdaReply> {
    const response = await fetch(this.base + path, {
      method,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    });
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(path: string): Promise<WdaReply> {
    return this.call('GET', path);
  }

  post(path: string, body: unknown = {}): Promise<WdaReply> {
    return this.call('POST', path, body);
  }

  /** The path under the current session. */
  s(path: string): string {
    return `/session/${this.sessionId}${path}`;
  }

  async createSession(caps: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.post('/session', { capabilities: { alwaysMatch: caps, firstMatch: [{}] } });
    if (reply.status !== 200) throw new Error(`session not created: ${reply.text}`);
    this.sessionId = reply.json.value.sessionId;
    return this.sessionId;
  }

  async find(using: string, value: string): Promise<string> {
    const reply = await this.post(this.s('/element'), { using, value });
    if (reply.status !== 200) throw new Error(`no element ${using}=${value}: ${reply.text}`);
    return reply.json.value.ELEMENT;
  }

  async source(): Promise<string> {
    return (await this.get('/source')).json.value;
  }

  async screenshot(): Promise<Pixels> {
    return decodePng(Buffer.from((await this.get('/screenshot')).json.value, 'base64'));
  }
}

export interface Pixels {
  width: number;
  height: number;
  png: Buffer;
  /** RGBA at a pixel. */
  at(x: number, y: number): [number, number, number, number];
}

export function decodePng(png: Buffer): Pixels {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  const image = new Image();
  image.src = png;
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  return {
    width: image.width,
    height: image.height,
    png,
    at(x, y) {
      const i = (Math.floor(y) * image.width + Math.floor(x)) * 4;
      return [data[i] as number, data[i + 1] as number, data[i + 2] as number, data[i + 3] as number];
    },
  };
}

/** Reads width/height from a PNG's IHDR without decoding it. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

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

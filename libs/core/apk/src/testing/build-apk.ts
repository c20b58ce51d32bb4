import { zipFiles, type ZipInput } from '@apex/zip/testing';

/*
 * Builds real APK-shaped files for tests: a zip (APPNOTE 4.3) holding a binary AndroidManifest.xml and,
 * when the label is a resource, a resources.arsc — encoded the way aapt2 lays them out (ResourceTypes.h), so
 * the reader, the virtual phone and the real `adb install` see the same bytes a build tool would produce.
 * There is no code (classes.dex) and no signature: the virtual phone does not run or verify code.
 */

export interface TestApkSpec {
  appId: string;
  /** The application label; with `labelAsResource` it is stored in resources.arsc as @string/app_name. */
  label?: string;
  labelAsResource?: boolean;
  /** A second, French label placed before the default one in resources.arsc (the reader must prefer the default). */
  frenchLabel?: string;
  versionName?: string;
  versionCode?: number;
  permissions?: string[];
  /** The launcher activity's name as written in the manifest (`.MainActivity`); default `.MainActivity`; null: none. */
  launcherActivity?: string | null;
  /** Write the manifest's string pool as UTF-8 (aapt2 writes UTF-16 for XML; both are valid). */
  utf8?: boolean;
  /** Bytes of (stored, incompressible) `assets/padding.bin`, to make the APK as large as a real one. */
  paddingBytes?: number;
}

const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
const ATTR_IDS: Record<string, number> = { label: 0x01010001, name: 0x01010003, versionCode: 0x0101021b, versionName: 0x0101021c };
export const APP_NAME_RESOURCE = 0x7f010000;

type AttrValue = string | number | boolean | { ref: number };
interface El {
  name: string;
  attrs: Array<{ android: boolean; name: string; value: AttrValue }>;
  children: El[];
}

const el = (name: string, attrs: El['attrs'] = [], children: El[] = []): El => ({ name, attrs, children });
const a = (name: string, value: AttrValue, android = true) => ({ android, name, value });

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}
function chunk(type: number, header: Buffer, body: Buffer): Buffer {
  const size = 8 + header.length + body.length;
  return Buffer.concat([u16(type), u16(8 + header.length), u32(size), header, body]);
}
function pad4(b: Buffer): Buffer {
  return b.length % 4 === 0 ? b : Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]);
}

/** A ResStringPool chunk. */
export function encodeStringPool(strings: string[], utf8 = false): Buffer {
  const encoded = strings.map((s) => {
    if (utf8) {
      const bytes = Buffer.from(s, 'utf8');
      const len = (n: number) => (n > 0x7f ? Buffer.from([0x80 | (n >> 8), n & 0xff]) : Buffer.from([n]));
      return Buffer.concat([len(s.length), len(bytes.length), bytes, Buffer.from([0])]);
    }
    return Buffer.concat([u16(s.length), Buffer.from(s, 'utf16le'), u16(0)]);
  });
  const offsets: Buffer[] = [];
  let at = 0;
  for (const e of encoded) {
    offsets.push(u32(at));
    at += e.length;
  }
  const data = pad4(Buffer.concat(encoded));
  const headerSize = 28;
  const stringsStart = headerSize + strings.length * 4;
  const header = Buffer.concat([u32(strings.length), u32(0), u32(utf8 ? 0x100 : 0), u32(stringsStart), u32(0)]);
  return chunk(0x0001, header, Buffer.concat([...offsets, data]));
}

/** Binary XML for an element tree (namespaces: only android's). */
export function encodeAxml(root: El, utf8 = false): Buffer {
  // Attribute names with resource ids come first: the resource map is indexed like the string pool.
  const withIds = new Set<string>();
  const others: string[] = ['android', ANDROID_NS];
  const visit = (e: El): void => {
    others.push(e.name);
    for (const at of e.attrs) {
      if (at.android && ATTR_IDS[at.name] !== undefined) withIds.add(at.name);
      else others.push(at.name);
      if (typeof at.value === 'string') others.push(at.value);
    }
    e.children.forEach(visit);
  };
  visit(root);
  const strings = [...withIds, ...others.filter((s, i) => others.indexOf(s) === i && !withIds.has(s))];
  const index = (s: string): number => strings.indexOf(s);
  const nsIndex = index(ANDROID_NS);
  const lineHeader = Buffer.concat([u32(1), u32(0xffffffff)]);
  const body: Buffer[] = [encodeStringPool(strings, utf8), chunk(0x0180, Buffer.alloc(0), Buffer.concat([...withIds].map((n) => u32(ATTR_IDS[n]))))];
  body.push(chunk(0x0100, lineHeader, Buffer.concat([u32(index('android')), u32(nsIndex)])));
  const write = (e: El): void => {
    const attrs = e.attrs.map((at) => {
      let type = 0x03;
      let data = 0;
      let raw = 0xffffffff;
      if (typeof at.value === 'string') {
        data = index(at.value);
        raw = data;
      } else if (typeof at.value === 'number') {
        type = 0x10;
        data = at.value;
      } else if (typeof at.value === 'boolean') {
        type = 0x12;
        data = at.value ? 0xffffffff : 0;
      } else {
        type = 0x01;
        data = at.value.ref;
      }
      return Buffer.concat([u32(at.android ? nsIndex : 0xffffffff), u32(index(at.name)), u32(raw), u16(8), Buffer.from([0, type]), u32(data)]);
    });
    const ext = Buffer.concat([u32(0xffffffff), u32(index(e.name)), u16(20), u16(20), u16(attrs.length), u16(0), u16(0), u16(0)]);
    body.push(chunk(0x0102, lineHeader, Buffer.concat([ext, ...attrs])));
    e.children.forEach(write);
    body.push(chunk(0x0103, lineHeader, Buffer.concat([u32(0xffffffff), u32(index(e.name))])));
  };
  write(root);
  body.push(chunk(0x0101, lineHeader, Buffer.concat([u32(index('android')), u32(nsIndex)])));
  return chunk(0x0003, Buffer.alloc(0), Buffer.concat(body));
}

/** resources.arsc with one string resource, @string/app_name (0x7f010000), per configuration given. */
export function encodeResourceTable(pkg: string, values: Array<{ language?: string; value: string }>): Buffer {
  const globalStrings = encodeStringPool(
    values.map((v) => v.value),
    true,
  );
  const typeStrings = encodeStringPool(['string'], true);
  const keyStrings = encodeStringPool(['app_name'], true);
  const types = values.map((v, i) => {
    const config = Buffer.alloc(64);
    config.writeUInt32LE(64, 0);
    if (v.language) config.write(v.language, 8, 'latin1');
    const header = Buffer.concat([Buffer.from([1, 0]), u16(0), u32(1), u32(8 + 12 + 64 + 4), config]);
    const entry = Buffer.concat([u16(8), u16(0), u32(0), u16(8), Buffer.from([0, 0x03]), u32(i)]);
    return chunk(0x0201, header, Buffer.concat([u32(0), entry]));
  });
  const name = Buffer.alloc(256);
  name.write(pkg.slice(0, 127), 'utf16le');
  const headerSize = 288;
  const packageHeader = Buffer.concat([u32(0x7f), name, u32(headerSize), u32(1), u32(headerSize + typeStrings.length), u32(1), u32(0)]);
  const pkgChunk = chunk(0x0200, packageHeader, Buffer.concat([typeStrings, keyStrings, ...types]));
  return chunk(0x0002, u32(1), Buffer.concat([globalStrings, pkgChunk]));
}

/** The manifest element tree of a small app. */
function manifestOf(spec: TestApkSpec): El {
  const label = spec.labelAsResource ? { ref: APP_NAME_RESOURCE } : (spec.label ?? spec.appId);
  const manifestAttrs = [a('versionCode', spec.versionCode ?? 1), a('versionName', spec.versionName ?? '1.0'), a('package', spec.appId, false)];
  const launcher = spec.launcherActivity === undefined ? '.MainActivity' : spec.launcherActivity;
  const activities = launcher === null ? [] : [el('activity', [a('name', launcher), a('exported', true)], [el('intent-filter', [], [el('action', [a('name', 'android.intent.action.MAIN')]), el('category', [a('name', 'android.intent.category.LAUNCHER')])])])];
  return el('manifest', manifestAttrs, [
    el('uses-sdk', [a('minSdkVersion', 24), a('targetSdkVersion', 34)]),
    ...(spec.permissions ?? []).map((p) => el('uses-permission', [a('name', p)])),
    el('application', [a('label', label)], activities),
  ]);
}

/** An APK's bytes for the spec. */
export function buildTestApk(spec: TestApkSpec): Buffer {
  const files: ZipInput[] = [{ name: 'AndroidManifest.xml', data: encodeAxml(manifestOf(spec), spec.utf8) }];
  if (spec.labelAsResource) {
    const values = [...(spec.frenchLabel ? [{ language: 'fr', value: spec.frenchLabel }] : []), { value: spec.label ?? spec.appId }];
    files.push({ name: 'resources.arsc', data: encodeResourceTable(spec.appId, values), method: 'store' });
  }
  files.push({ name: 'META-INF/MANIFEST.MF', data: Buffer.from('Manifest-Version: 1.0\r\nCreated-By: Apex tests\r\n') });
  if (spec.paddingBytes) files.push({ name: 'assets/padding.bin', data: noise(spec.paddingBytes), method: 'store' });
  return zipFiles(files);
}

/** Deterministic incompressible bytes (xorshift32). */
function noise(length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

import { ApkError } from './apk-error';
import { ResourceTable } from './arsc';
import { parseAxml, type AxmlElement, type AxmlValue } from './axml';
import { readZipEntry, ZipError, zipEntries, type ByteSource } from '@apex/zip';

/** What Apex (and the virtual phone) read from an APK's manifest. */
export interface ApkInfo {
  /** The package name (`<manifest package=…>`). */
  appId: string;
  /** The application's label (resolved from resources.arsc when it is a reference); the package name without one. */
  name: string;
  /** `android:versionName`, where set. */
  version?: string;
  versionCode?: number;
  /** `<uses-permission android:name=…>` in manifest order. */
  permissions: string[];
  /** The full class name of the activity with the MAIN/LAUNCHER intent filter, where there is one. */
  launcherActivity?: string;
}

export interface ApkLimits {
  /** Largest AndroidManifest.xml (unpacked) read; default 8 MiB (a large app's is well under 1 MiB). */
  maxManifestBytes?: number;
  /** Largest resources.arsc read to resolve the label; default 64 MiB. */
  maxResourcesBytes?: number;
}

/** android.R.attr ids: builds may strip the attribute names and keep only these. */
const ATTR = { label: 0x01010001, name: 0x01010003, versionCode: 0x0101021b, versionName: 0x0101021c } as const;
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const MAX_NAME = 256;

function attr(element: AxmlElement, name: keyof typeof ATTR | 'package'): AxmlValue | undefined {
  const id = name === 'package' ? 0 : ATTR[name];
  return element.attributes.find((a) => (id !== 0 && a.resourceId === id) || (a.name === name && (id === 0 || a.resourceId === 0 || a.resourceId === id)))?.value;
}

function text(value: AxmlValue | undefined): string | undefined {
  if (!value) return undefined;
  if (value.kind === 'string') return value.value;
  if (value.kind === 'number') return String(value.value);
  return undefined;
}

function fullClass(pkg: string, name: string): string {
  if (name.startsWith('.')) return pkg + name;
  return name.includes('.') ? name : `${pkg}.${name}`;
}

function isLauncher(activity: AxmlElement): boolean {
  return activity.children.some(
    (f) =>
      f.name === 'intent-filter' &&
      f.children.some((c) => c.name === 'action' && text(attr(c, 'name')) === 'android.intent.action.MAIN') &&
      f.children.some((c) => c.name === 'category' && text(attr(c, 'name')) === 'android.intent.category.LAUNCHER'),
  );
}

/** Reads the package, label, version, permissions and launcher activity of an APK. Throws ApkError only. */
export async function readApkInfo(source: ByteSource, limits: ApkLimits = {}): Promise<ApkInfo> {
  try {
    return await read(source, limits);
  } catch (error) {
    // A read past a damaged structure's end (RangeError) is the file's fault, said the same way.
    if (error instanceof ApkError) throw error;
    if (error instanceof ZipError) throw new ApkError(error.reason);
    throw new ApkError('it is damaged (its structures point outside themselves)');
  }
}

async function read(source: ByteSource, limits: ApkLimits): Promise<ApkInfo> {
  const entries = await zipEntries(source);
  const manifestEntry = entries.find((e) => e.name === 'AndroidManifest.xml');
  if (!manifestEntry) throw new ApkError('it has no AndroidManifest.xml (an APK needs one)');
  const manifest = parseAxml(await readZipEntry(source, manifestEntry, limits.maxManifestBytes ?? 8 * 1024 * 1024, 'manifest'));
  if (manifest.name !== 'manifest') throw new ApkError('its manifest does not start with <manifest>');
  const appId = text(attr(manifest, 'package'));
  if (!appId || !PACKAGE_NAME.test(appId) || appId.length > MAX_NAME) throw new ApkError('its manifest names no valid package');

  const application = manifest.children.find((c) => c.name === 'application');
  let name: string | undefined;
  const label = application ? attr(application, 'label') : undefined;
  if (label?.kind === 'string') name = label.value;
  else if (label?.kind === 'reference') {
    const resourcesEntry = entries.find((e) => e.name === 'resources.arsc');
    if (resourcesEntry) {
      const table = new ResourceTable(await readZipEntry(source, resourcesEntry, limits.maxResourcesBytes ?? 64 * 1024 * 1024, 'resource table'));
      name = table.resolveString(label.id);
    }
  }
  name = (name ?? '').trim().slice(0, MAX_NAME) || appId;

  const info: ApkInfo = { appId, name, permissions: [] };
  const version = text(attr(manifest, 'versionName'));
  if (version) info.version = version.slice(0, MAX_NAME);
  const code = attr(manifest, 'versionCode');
  if (code?.kind === 'number') info.versionCode = code.value;
  for (const c of manifest.children) {
    const permission = c.name === 'uses-permission' ? text(attr(c, 'name')) : undefined;
    if (permission) info.permissions.push(permission);
  }
  for (const a of application?.children ?? []) {
    if ((a.name === 'activity' || a.name === 'activity-alias') && isLauncher(a)) {
      const activityName = text(attr(a, 'name'));
      if (activityName) {
        info.launcherActivity = fullClass(appId, activityName);
        break;
      }
    }
  }
  return info;
}

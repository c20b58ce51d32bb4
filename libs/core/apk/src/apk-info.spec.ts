import fc from 'fast-check';
import { deflateRawSync } from 'node:zlib';
import { ApkError, bufferSource, readApkInfo } from './index';
import { zipFiles } from '@apex/zip/testing';
import { buildTestApk, encodeAxml } from './testing';

const read = (bytes: Buffer, limits = {}) => readApkInfo(bufferSource(bytes), limits);

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApkError);
    return (error as ApkError).reason;
  }
  throw new Error('expected an ApkError');
}

describe('readApkInfo', () => {
  it('reads the package, the plain label, the version, the permissions and the launcher activity (UTF-16 strings)', async () => {
    const apk = buildTestApk({
      appId: 'com.example.weather',
      label: 'Weather Now',
      versionName: '2.4.1',
      versionCode: 241,
      permissions: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.INTERNET'],
      launcherActivity: '.ui.MainActivity',
    });
    expect(await read(apk)).toEqual({
      appId: 'com.example.weather',
      name: 'Weather Now',
      version: '2.4.1',
      versionCode: 241,
      permissions: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.INTERNET'],
      launcherActivity: 'com.example.weather.ui.MainActivity',
    });
  });

  it('resolves a label kept in the resource table, preferring the default configuration (UTF-8 strings)', async () => {
    const apk = buildTestApk({ appId: 'org.sample.notes', label: 'Notes', labelAsResource: true, frenchLabel: 'Carnet', utf8: true, launcherActivity: 'org.sample.notes.Home' });
    const info = await read(apk);
    expect(info.name).toBe('Notes');
    expect(info.launcherActivity).toBe('org.sample.notes.Home');
  });

  it('names an app without a label by its package, and one without a launcher activity has none', async () => {
    const info = await read(buildTestApk({ appId: 'com.example.service', label: '  ', launcherActivity: null }));
    expect(info.name).toBe('com.example.service');
    expect(info.launcherActivity).toBeUndefined();
  });

  it('refuses what is not an APK, each with its reason', async () => {
    expect(await reason(read(Buffer.from('this is a text file named .apk\n')))).toMatch(/not a zip archive/);
    expect(await reason(read(zipFiles([{ name: 'classes.dex', data: Buffer.from('dex\n035') }])))).toMatch(/no AndroidManifest\.xml/);
    expect(await reason(read(zipFiles([{ name: 'AndroidManifest.xml', data: Buffer.from('<manifest package="a.b"/>') }])))).toMatch(/not binary XML|damaged/);
    const noPackage = encodeAxml({ name: 'manifest', attrs: [], children: [] });
    expect(await reason(read(zipFiles([{ name: 'AndroidManifest.xml', data: noPackage }])))).toMatch(/no valid package/);
  });

  it('stops a zip bomb: a manifest that unpacks beyond the size it declares, or declares more than the limit', async () => {
    const huge = Buffer.alloc(50 * 1024 * 1024); // 50 MB of zeros deflate to ~50 KB
    const bomb = zipFiles([{ name: 'AndroidManifest.xml', data: huge, declaredSize: 1024 }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await reason(read(bomb))).toMatch(/does not unpack/);
    const honestButHuge = zipFiles([{ name: 'AndroidManifest.xml', data: huge }]);
    expect(await reason(read(honestButHuge, { maxManifestBytes: 8 * 1024 * 1024 }))).toMatch(/manifest is larger than 8388608 bytes/);
  });

  it('never fails with anything but its own error on damaged bytes (fuzzed)', async () => {
    const apk = buildTestApk({ appId: 'com.example.fuzz', label: 'Fuzz', labelAsResource: true, permissions: ['android.permission.CAMERA'] });
    const manifest = encodeAxml({ name: 'manifest', attrs: [{ android: false, name: 'package', value: 'a.b' }], children: [] });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }), fc.boolean(), async (edits, stored) => {
        // Damage the archive, or (stored, so the bytes reach the XML reader) the manifest itself.
        const target = stored ? Buffer.from(manifest) : Buffer.from(apk);
        for (const [at, value] of edits) target[at % target.length] = value;
        const bytes = stored ? zipFiles([{ name: 'AndroidManifest.xml', data: target, method: 'store' }]) : target;
        try {
          await read(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ApkError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads deflated and stored entries alike', async () => {
    const manifest = encodeAxml({ name: 'manifest', attrs: [{ android: false, name: 'package', value: 'com.example.stored' }], children: [] });
    expect((await read(zipFiles([{ name: 'AndroidManifest.xml', data: manifest, method: 'store' }]))).appId).toBe('com.example.stored');
    expect(deflateRawSync(manifest).length).toBeGreaterThan(0);
    expect((await read(zipFiles([{ name: 'AndroidManifest.xml', data: manifest }]))).appId).toBe('com.example.stored');
  });
});

describe('the sample Android app in examples/apps', () => {
  it('is a build the reader (and so install_app and the virtual phone) takes: Where Am I, asking for the location', async () => {
    const { readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const bytes = await readFile(join(__dirname, '../../../../examples/apps/WhereAmI.apk'));
    expect(await read(bytes)).toEqual({
      appId: 'dev.apex.whereami',
      name: 'Where Am I',
      version: '1.0',
      versionCode: 1,
      permissions: ['android.permission.ACCESS_FINE_LOCATION', 'android.permission.ACCESS_COARSE_LOCATION'],
      launcherActivity: 'dev.apex.whereami.MainActivity',
    });
  });
});

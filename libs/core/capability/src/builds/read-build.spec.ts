import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTestApk } from '@apex/apk/testing';
import { ApexError } from '@apex/errors';
import { binaryPlist, xmlPlist, zipFiles } from '@apex/testing';
import { readBuild, readBuildFile, readMediaFile } from './read-build';

const INFO = { CFBundleIdentifier: 'com.example.WhereAmI', CFBundleDisplayName: 'Where Am I', CFBundleShortVersionString: '1.2' };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ApexError ? error.code : `not an ApexError: ${String(error)}`;
  }
}

describe('readBuild: a build on the Apex host, checked and read from the build itself', () => {
  let root: string;
  let outside: string;
  const at = (...parts: string[]) => path.join(root, ...parts);

  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(tmpdir(), 'apex-builds-')));
    outside = await realpath(await mkdtemp(path.join(tmpdir(), 'apex-outside-')));
    await mkdir(at('Xml.app'));
    await writeFile(at('Xml.app', 'Info.plist'), xmlPlist(INFO));
    await writeFile(at('Xml.app', 'apex-screens.json'), '{"screens":{}}');
    await mkdir(at('Binary.app'));
    await writeFile(at('Binary.app', 'Info.plist'), binaryPlist({ CFBundleIdentifier: 'com.example.Bin', CFBundleName: 'Bin Ärger', CFBundleVersion: '7' }));
    await writeFile(at('WhereAmI.ipa'), zipFiles([
      { name: 'Payload/WhereAmI.app/Info.plist', data: xmlPlist(INFO) },
      { name: 'Payload/WhereAmI.app/apex-screens.json', data: '{"screens":{}}' },
    ]));
    await writeFile(at('Zipped.zip'), zipFiles([{ name: 'Zipped.app/Info.plist', data: binaryPlist(INFO), method: 'store' }]));
    await writeFile(at('notes.ipa'), 'this is a text file, not an archive\n');
    // Three entries that declare 4 GB each: refused from the directory alone.
    await writeFile(at('bomb.ipa'), zipFiles([0, 1, 2].map((i) => ({ name: `Payload/B.app/blob${i}`, data: 'x', declaredSize: 0xfffffff0 }))));
    // An Info.plist that inflates to far more than it declares.
    await writeFile(at('liar.ipa'), zipFiles([{ name: 'Payload/L.app/Info.plist', data: Buffer.alloc(5_000_000, 0x20), declaredSize: 100 }]));
    // A 20 MB Info.plist, in a folder and in an archive.
    const huge = Buffer.alloc(20 * 1024 * 1024, 0x20);
    await mkdir(at('Huge.app'));
    await writeFile(at('Huge.app', 'Info.plist'), huge);
    await writeFile(at('huge.ipa'), zipFiles([{ name: 'Payload/H.app/Info.plist', data: huge }]));
    await mkdir(at('NoId.app'));
    await writeFile(at('NoId.app', 'Info.plist'), xmlPlist({ CFBundleName: 'No Id' }));
    await mkdir(at('Bad.app'));
    await writeFile(at('Bad.app', 'Info.plist'), '<plist><dict><key>a</key></dict>');
    await mkdir(path.join(outside, 'Secret.app'));
    await writeFile(path.join(outside, 'Secret.app', 'Info.plist'), xmlPlist(INFO));
    await symlink(path.join(outside, 'Secret.app'), at('Link.app'));
    await writeFile(at('file.app'), 'x');
    await mkdir(at('Folder.ipa'));
    await writeFile(at('photo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    await writeFile(at('photo.jpg'), 'not a jpeg');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('reads an .app folder with an XML Info.plist', async () => {
    expect(await readBuild(at('Xml.app'), [root])).toEqual({ path: at('Xml.app'), kind: 'app', appId: 'com.example.WhereAmI', name: 'Where Am I', version: '1.2' });
  });

  it('reads a binary Info.plist (UTF-16 strings included)', async () => {
    expect(await readBuild(at('Binary.app'), [root])).toMatchObject({ appId: 'com.example.Bin', name: 'Bin Ärger', version: '7' });
  });

  it('reads an .ipa (Payload/X.app/) and a .zip of X.app/ without unpacking them to disk', async () => {
    expect(await readBuild(at('WhereAmI.ipa'), [root])).toMatchObject({ kind: 'ipa', appId: 'com.example.WhereAmI', name: 'Where Am I' });
    expect(await readBuild(at('Zipped.zip'), [root])).toMatchObject({ kind: 'ipa', appId: 'com.example.WhereAmI' });
  });

  it('reads a file of the bundle on request, from a folder or an archive', async () => {
    const fromDir = await readBuildFile(await readBuild(at('Xml.app'), [root]), 'apex-screens.json', 1000);
    const fromIpa = await readBuildFile(await readBuild(at('WhereAmI.ipa'), [root]), 'apex-screens.json', 1000);
    expect(fromDir?.toString()).toBe('{"screens":{}}');
    expect(fromIpa?.toString()).toBe('{"screens":{}}');
    expect(await readBuildFile(await readBuild(at('Zipped.zip'), [root]), 'apex-screens.json', 1000)).toBeUndefined();
  });

  it.each([
    ['a text file named .ipa', 'notes.ipa'],
    ['a zip bomb (declared sizes)', 'bomb.ipa'],
    ['an entry that inflates beyond its declared size', 'liar.ipa'],
    ['a 20 MB Info.plist in a folder', 'Huge.app'],
    ['a 20 MB Info.plist in an archive', 'huge.ipa'],
    ['an Info.plist without a bundle id', 'NoId.app'],
    ['a malformed Info.plist', 'Bad.app'],
    ['an unknown kind', 'notes.txt'],
    ['a file named .app', 'file.app'],
    ['a folder named .ipa', 'Folder.ipa'],
  ])('refuses %s with invalid_argument', async (_, name) => {
    expect(await codeOf(readBuild(at(name), [root]))).toBe('invalid_argument');
  });

  it('refuses traversal, a path outside the roots and a symlink leading out of them', async () => {
    expect(await codeOf(readBuild(`${root}/../${path.basename(outside)}/Secret.app`, [root]))).toBe('invalid_argument');
    expect(await codeOf(readBuild(path.join(outside, 'Secret.app'), [root]))).toBe('invalid_argument');
    expect(await codeOf(readBuild(at('Link.app'), [root]))).toBe('invalid_argument');
    // The same folder is fine once its root is allowed.
    expect(await readBuild(path.join(outside, 'Secret.app'), [root, outside])).toMatchObject({ appId: 'com.example.WhereAmI' });
  });

  it('reads an .apk from its manifest, and refuses one whose manifest is not a binary manifest', async () => {
    await writeFile(at('WhereAmI.apk'), buildTestApk({ appId: 'com.example.whereami', label: 'Where Am I', versionName: '1.2' }));
    await expect(readBuild(at('WhereAmI.apk'), [root])).resolves.toMatchObject({ kind: 'apk', appId: 'com.example.whereami', name: 'Where Am I', version: '1.2' });
    await writeFile(at('app.apk'), zipFiles([{ name: 'AndroidManifest.xml', data: 'x' }]));
    expect(await codeOf(readBuild(at('app.apk'), [root]))).toBe('invalid_argument');
  });

  it('add_media files: a real PNG passes, a text file named .jpg does not', async () => {
    expect(await readMediaFile(at('photo.png'), [root], 1000)).toEqual({ path: at('photo.png'), kind: 'photo' });
    expect(await codeOf(readMediaFile(at('photo.jpg'), [root], 1000))).toBe('invalid_argument');
    expect(await codeOf(readMediaFile(at('photo.png'), [outside], 1000))).toBe('invalid_argument');
    expect(await codeOf(readMediaFile(at('photo.png'), [root], 4))).toBe('invalid_argument');
  });
});

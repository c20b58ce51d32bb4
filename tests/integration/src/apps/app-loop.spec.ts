import path from 'node:path';
import { zipFiles } from '@apex/testing';
import { startBothFaces, type BothFaces } from '../support/both-faces';
import { sampleBuildsIn, SAMPLE_ID, SAMPLE_NAME } from './sample-builds';

jest.setTimeout(120_000);

const LOCATION_ALERT = `Allow \u201c${SAMPLE_NAME}\u201d to use your location?`;

/**
 * The developer's loop on the embedded virtual iPhone, through both faces: install the sample app → launch →
 * its permission alert → grant (no alert on relaunch) → a simulated position (the app shows it) → background →
 * state → reset (first launch again) → uninstall (gone). MCP installs the `.app` folder, REST the `.ipa`.
 */
describe("the developer's loop through MCP and REST on the virtual iPhone", () => {
  let faces: BothFaces;
  let builds: { app: string; ipa: string };

  beforeAll(async () => {
    faces = await startBothFaces('app-loop');
    builds = await sampleBuildsIn(path.join(faces.harness.runtime.dataDir, 'builds'));
  });
  afterAll(async () => faces?.close());

  /** The texts of the screen whose label contains `text` (read from the element tree). */
  async function screenHas(text: string): Promise<boolean> {
    const found = await faces.tool('find_text', { device: 'iphone-virtual', text, source: 'ui-tree' });
    return (found.matches as unknown[]).length > 0;
  }

  it('MCP: install → alert → grant → position → background → state → reset → uninstall', async () => {
    const device = 'iphone-virtual';
    expect(await faces.tool('install_app', { device, path: builds.app })).toEqual({ appId: SAMPLE_ID, name: SAMPLE_NAME, version: '1.0', replaced: false });
    expect(await faces.tool('app_state', { device, appId: SAMPLE_ID })).toEqual({ appId: SAMPLE_ID, state: 'notRunning' });

    const launched = await faces.tool('launch_app', { device, name: SAMPLE_NAME, observe: 'summary' });
    expect((launched.observed as { alert?: string }).alert).toContain(LOCATION_ALERT);

    await faces.tool('set_permission', { device, appId: SAMPLE_ID, permission: 'location', state: 'granted' });
    await faces.tool('terminate_app', { device, appId: SAMPLE_ID });
    const relaunched = await faces.tool('launch_app', { device, appId: SAMPLE_ID, observe: 'summary' });
    expect((relaunched.observed as { alert?: string }).alert).toBeUndefined();
    expect(await screenHas('Location unavailable')).toBe(true);

    await faces.tool('set_location', { device, latitude: 48.8584, longitude: 2.2945 });
    expect(await screenHas('48.85840, 2.29450')).toBe(true);

    await faces.tool('background_app', { device });
    expect(await faces.tool('app_state', { device, appId: SAMPLE_ID })).toEqual({ appId: SAMPLE_ID, state: 'background' });
    await faces.tool('background_app', { device, seconds: 0 });
    expect((await faces.tool('app_state', { device, appId: SAMPLE_ID })).state).toBe('background');
    await faces.tool('launch_app', { device, appId: SAMPLE_ID });
    await faces.tool('background_app', { device, seconds: 0.2 });
    expect((await faces.tool('app_state', { device, appId: SAMPLE_ID })).state).toBe('foreground');

    await faces.tool('reset_app', { device, appId: SAMPLE_ID });
    expect((await faces.tool('app_state', { device, appId: SAMPLE_ID })).state).toBe('notRunning');
    const fresh = await faces.tool('launch_app', { device, appId: SAMPLE_ID, observe: 'summary' });
    expect((fresh.observed as { alert?: string }).alert).toContain(LOCATION_ALERT);

    expect(await faces.tool('uninstall_app', { device, appId: SAMPLE_ID })).toEqual({ appId: SAMPLE_ID, uninstalled: true });
    expect((await faces.tool('app_state', { device, appId: SAMPLE_ID })).state).toBe('notInstalled');
    expect((await faces.toolError('launch_app', { device, appId: SAMPLE_ID })).code).toBe('app_not_found');
    expect((await faces.toolError('uninstall_app', { device, appId: SAMPLE_ID })).code).toBe('app_not_found');
    // What the phone refuses, in neutral words on both faces.
    for (const [operation, route, args, code] of [
      ['uninstall_app', '/apps/uninstall', { appId: 'com.apple.Preferences' }, 'unsupported_operation'],
      ['reset_app', '/apps/reset', { appId: SAMPLE_ID }, 'app_not_found'],
      ['set_permission', '/permission', { appId: SAMPLE_ID, permission: 'camera', state: 'granted' }, 'app_not_found'],
      ['push_notification', '/push', { appId: SAMPLE_ID, title: 'a', body: 'b' }, 'app_not_found'],
    ] as const) {
      expect({ operation, code: (await faces.toolError(operation, { device, ...args })).code }).toEqual({ operation, code });
      expect({ operation, code: (await faces.rest('POST', route, args)).body.code }).toEqual({ operation, code });
    }
  });

  it('REST: the same loop from the .ipa', async () => {
    const ok = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
      const answer = await faces.rest(method, route, body);
      expect({ route, status: answer.status }).toEqual({ route, status: 200 });
      return answer.body;
    };
    expect(await ok('POST', '/apps/install', { path: builds.ipa })).toEqual({ appId: SAMPLE_ID, name: SAMPLE_NAME, version: '1.0', replaced: false });
    const launched = await ok('POST', '/launch', { appId: SAMPLE_ID, observe: 'summary' });
    expect((launched.observed as { alert?: string }).alert).toContain(LOCATION_ALERT);
    await ok('POST', '/permission', { appId: SAMPLE_ID, permission: 'location', state: 'granted' });
    await ok('POST', '/terminate', { appId: SAMPLE_ID });
    const relaunched = await ok('POST', '/launch', { appId: SAMPLE_ID, observe: 'summary' });
    expect((relaunched.observed as { alert?: string }).alert).toBeUndefined();
    await ok('POST', '/location', { latitude: -33.8568, longitude: 151.2153 });
    expect(((await ok('POST', '/find-text', { text: '-33.85680, 151.21530', source: 'ui-tree' })).matches as unknown[]).length).toBe(1);
    await ok('POST', '/background', {});
    expect(await ok('GET', `/apps/state?appId=${SAMPLE_ID}`)).toEqual({ appId: SAMPLE_ID, state: 'background' });
    await ok('POST', '/apps/reset', { appId: SAMPLE_ID });
    const fresh = await ok('POST', '/launch', { appId: SAMPLE_ID, observe: 'summary' });
    expect((fresh.observed as { alert?: string }).alert).toContain(LOCATION_ALERT);
    await ok('POST', '/apps/uninstall', { appId: SAMPLE_ID });
    expect(await ok('GET', `/apps/state?appId=${SAMPLE_ID}`)).toEqual({ appId: SAMPLE_ID, state: 'notInstalled' });
    await ok('POST', '/location', { clear: true });
  });

  it('the rest of the environment: launch arguments and locale, a push a tap opens, Face ID, a photo', async () => {
    const device = 'iphone-virtual';
    await faces.tool('install_app', { device, path: builds.app });
    await faces.tool('set_permission', { device, appId: SAMPLE_ID, permission: 'location', state: 'denied' });
    await faces.tool('launch_app', { device, appId: SAMPLE_ID, arguments: ['-ShowDebugMenu', 'YES'] });
    expect(await screenHas('Launched with: -ShowDebugMenu YES')).toBe(true);
    expect(await screenHas('Location access denied')).toBe(true);
    await faces.tool('launch_app', { device, appId: SAMPLE_ID, locale: 'fr-FR' });
    expect(await screenHas('Launched with: -AppleLanguages (fr-FR) -AppleLocale fr_FR')).toBe(true);

    await faces.tool('press_button', { device, button: 'home' });
    await faces.tool('push_notification', { device, appId: SAMPLE_ID, title: 'Trip saved', body: 'Paris is in your places' });
    const banner = await faces.tool('find_text', { device, text: 'Trip saved', source: 'ui-tree' });
    const [match] = banner.matches as { center: { x: number; y: number } }[];
    expect(match).toBeDefined();
    const tapped = await faces.tool('tap', { device, x: match?.center.x, y: match?.center.y, observe: 'summary' });
    expect((tapped.observed as { app?: { appId: string } }).app?.appId).toBe(SAMPLE_ID);
    expect(await screenHas('Last notification: Trip saved')).toBe(true);

    await faces.tool('biometric', { device, action: 'enroll' });
    await faces.tool('tap', { device, ...(await centerOf('Account')) });
    await faces.tool('tap', { device, ...(await centerOf('Sign in with Face ID')) });
    await faces.tool('biometric', { device, action: 'match' });
    expect(await screenHas('Signed in')).toBe(true);

    const photo = path.join(faces.harness.runtime.dataDir, 'builds', 'beach.png');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(photo, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    expect(await faces.tool('add_media', { device, path: photo })).toEqual({ kind: 'photo', added: true });
    await faces.tool('launch_app', { device, name: 'Photos' });
    const photos = (await faces.tool('find_text', { device, text: 'Photo 13', source: 'ui-tree' })).matches as { text: string }[];
    expect(photos.map((m) => m.text)).toContain('Photo 13');
    await faces.tool('uninstall_app', { device, appId: SAMPLE_ID });
  });

  async function centerOf(text: string): Promise<{ x: number; y: number }> {
    const found = await faces.tool('find_text', { device: 'iphone-virtual', text, source: 'ui-tree' });
    const [match] = found.matches as { center: { x: number; y: number } }[];
    if (!match) throw new Error(`"${text}" is not on screen`);
    return match.center;
  }

  it('refuses builds it must not read, on both faces, and installs nothing', async () => {
    const dir = path.join(faces.harness.runtime.dataDir, 'builds');
    const { writeFile, symlink, mkdir } = await import('node:fs/promises');
    await writeFile(path.join(dir, 'notes.ipa'), 'a text file, not an archive\n');
    // Declares 12 GB of content: refused from the archive's directory, nothing unpacked.
    await writeFile(path.join(dir, 'bomb.ipa'), zipFiles([0, 1, 2].map((i) => ({ name: `Payload/B.app/blob${i}`, data: 'x', declaredSize: 0xfffffff0 }))));
    await writeFile(path.join(dir, 'huge.ipa'), zipFiles([{ name: 'Payload/H.app/Info.plist', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]));
    await mkdir(path.join(dir, 'Out'), { recursive: true });
    await symlink('/etc', path.join(dir, 'Out', 'Escape.app')).catch(() => undefined);
    const versionBefore = faces.harness.runtime.embedded?.phone.version;
    const outside = path.resolve('/etc/hosts.app');
    for (const bad of [
      outside,
      '../../etc/Secret.app',
      path.join(dir, 'beach.png'),
      path.join(dir, 'notes.ipa'),
      path.join(dir, 'bomb.ipa'),
      path.join(dir, 'huge.ipa'),
      path.join(dir, 'Out', 'Escape.app'),
    ]) {
      expect((await faces.toolError('install_app', { device: 'iphone-virtual', path: bad })).code).toBe('invalid_argument');
      expect((await faces.rest('POST', '/apps/install', { path: bad })).body.code).toBe('invalid_argument');
    }
    expect(faces.harness.runtime.embedded?.phone.installedApps().some((a) => a.bundleId === SAMPLE_ID)).toBe(false);
    // Nothing reached the phone.
    expect(faces.harness.runtime.embedded?.phone.version).toBe(versionBefore);
  });
});

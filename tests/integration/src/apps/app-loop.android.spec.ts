import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startBothFaces, type BothFaces } from '../support/both-faces';

jest.setTimeout(120_000);

const DEVICE = 'android-virtual';
const APP_ID = 'dev.apex.whereami';
const APP_NAME = 'Where Am I';
const SAMPLE_APK = path.resolve(__dirname, '../../../../examples/apps/WhereAmI.apk');
const LOCATION_DIALOG = `Allow ${APP_NAME} to access this device\u2019s location?`;

/**
 * The developer's loop on the embedded virtual Android phone (reached through the direct adb transport), through
 * both faces, with the sample APK: install → launch → the permission dialog → grant (no dialog on relaunch) →
 * a simulated position (the app shows it) → launch arguments (shown by the app) → background → state → reset (first launch again) → uninstall.
 */
describe("the developer's loop through MCP and REST on the virtual Android phone", () => {
  let faces: BothFaces;
  let apk: string;

  beforeAll(async () => {
    faces = await startBothFaces('app-loop-android');
    const builds = path.join(faces.harness.runtime.dataDir, 'builds');
    await mkdir(builds, { recursive: true });
    apk = path.join(builds, 'WhereAmI.apk');
    await copyFile(SAMPLE_APK, apk);
  });
  afterAll(async () => faces?.close());

  async function screenHas(text: string): Promise<boolean> {
    const found = await faces.tool('find_text', { device: DEVICE, text, source: 'ui-tree' });
    return (found.matches as unknown[]).length > 0;
  }

  it('MCP: install → dialog → grant → position → background → state → reset → uninstall', async () => {
    const device = DEVICE;
    expect(await faces.tool('install_app', { device, path: apk })).toEqual({ appId: APP_ID, name: APP_NAME, version: '1.0', replaced: false });
    expect(await faces.tool('app_state', { device, appId: APP_ID })).toEqual({ appId: APP_ID, state: 'notRunning' });

    const launched = await faces.tool('launch_app', { device, name: APP_NAME, observe: 'summary' });
    expect((launched.observed as { alert?: string }).alert).toContain(LOCATION_DIALOG);
    await faces.tool('set_permission', { device, appId: APP_ID, permission: 'location', state: 'granted' });
    await faces.tool('terminate_app', { device, appId: APP_ID });
    const relaunched = await faces.tool('launch_app', { device, appId: APP_ID, observe: 'summary' });
    expect((relaunched.observed as { alert?: string }).alert).toBeUndefined();

    await faces.tool('set_location', { device, latitude: 48.8584, longitude: 2.2945 });
    expect(await screenHas('Location: 48.85840, 2.29450')).toBe(true);

    // Launch arguments arrive as string extras (the app shows them); a locale is refused with the reason.
    await faces.tool('launch_app', { device, appId: APP_ID, arguments: ['-mode', 'demo'] });
    expect(await screenHas('Launched with: mode=demo')).toBe(true);
    expect((await faces.toolError('launch_app', { device, appId: APP_ID, locale: 'fr-FR' })).code).toBe('unsupported_operation');

    await faces.tool('background_app', { device });
    expect(await faces.tool('app_state', { device, appId: APP_ID })).toEqual({ appId: APP_ID, state: 'background' });

    await faces.tool('reset_app', { device, appId: APP_ID });
    expect((await faces.tool('app_state', { device, appId: APP_ID })).state).toBe('notRunning');
    const fresh = await faces.tool('launch_app', { device, appId: APP_ID, observe: 'summary' });
    expect((fresh.observed as { alert?: string }).alert).toContain(LOCATION_DIALOG);

    expect(await faces.tool('uninstall_app', { device, appId: APP_ID })).toEqual({ appId: APP_ID, uninstalled: true });
    expect((await faces.tool('app_state', { device, appId: APP_ID })).state).toBe('notInstalled');
    expect((await faces.toolError('launch_app', { device, appId: APP_ID })).code).toBe('app_not_found');
    expect((await faces.toolError('uninstall_app', { device, appId: 'com.android.settings' })).code).toBe('unsupported_operation');
    expect((await faces.toolError('biometric', { device, action: 'match' })).code).toBe('unsupported_operation');
    await faces.tool('set_location', { device, clear: true });
  });

  it('REST: the same loop', async () => {
    const ok = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
      const answer = await faces.rest(method, route, body, DEVICE);
      expect({ route, status: answer.status, body: answer.status === 200 ? undefined : answer.body }).toEqual({ route, status: 200, body: undefined });
      return answer.body;
    };
    expect(await ok('POST', '/apps/install', { path: apk })).toEqual({ appId: APP_ID, name: APP_NAME, version: '1.0', replaced: false });
    const launched = await ok('POST', '/launch', { appId: APP_ID, observe: 'summary' });
    expect((launched.observed as { alert?: string }).alert).toContain(LOCATION_DIALOG);
    await ok('POST', '/permission', { appId: APP_ID, permission: 'location', state: 'granted' });
    await ok('POST', '/terminate', { appId: APP_ID });
    const relaunched = await ok('POST', '/launch', { appId: APP_ID, observe: 'summary' });
    expect((relaunched.observed as { alert?: string }).alert).toBeUndefined();
    await ok('POST', '/location', { latitude: -33.8568, longitude: 151.2153 });
    expect(((await ok('POST', '/find-text', { text: 'Location: -33.85680, 151.21530', source: 'ui-tree' })).matches as unknown[]).length).toBe(1);
    await ok('POST', '/background', {});
    expect(await ok('GET', `/apps/state?appId=${APP_ID}`)).toEqual({ appId: APP_ID, state: 'background' });
    await ok('POST', '/apps/reset', { appId: APP_ID });
    await ok('POST', '/apps/uninstall', { appId: APP_ID });
    expect(await ok('GET', `/apps/state?appId=${APP_ID}`)).toEqual({ appId: APP_ID, state: 'notInstalled' });
    await ok('POST', '/location', { clear: true });
  });
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApexError } from '@apex/errors';
import type { AppBuild } from '@apex/port';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import { xmlPlist } from '@apex/testing';
import { createSimctlControl } from './simctl';
import type { SimulatorControl } from './simulator-control';

const UDID = '8A1B3C4D-1111-2222-3333-444455556666';
const live = new AbortController().signal;
const XCODE = { version: '15.4', build: '15F31d' };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ApexError ? error.code : `not an ApexError: ${String(error)}`;
  }
}

describe('the simulator control through `xcrun simctl` (a stand-in xcrun on PATH)', () => {
  let dir: string;
  let tools: StandIns;
  let control: SimulatorControl;
  let build: AppBuild;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'apex-simctl-'));
    tools = installStandIns({ xcode: XCODE });
    control = createSimctlControl({ deviceId: 'sim-1', udid: UDID, env: tools.env });
    const app = path.join(dir, 'WhereAmI.app');
    await mkdir(app);
    await writeFile(path.join(app, 'Info.plist'), xmlPlist({ CFBundleIdentifier: 'dev.apex.WhereAmI', CFBundleName: 'Where Am I' }));
    build = { path: app, kind: 'app', appId: 'dev.apex.WhereAmI', name: 'Where Am I' };
  });
  afterEach(async () => {
    tools.remove();
    await rm(dir, { recursive: true, force: true });
  });

  const xcrunCalls = () => tools.calls().filter((c) => c.tool === 'xcrun');
  const argvs = async () => xcrunCalls().map((c) => c.args.join(' '));

  it('installs: asks whether the app is there, then installs the .app; a second install replaces it', async () => {
    expect(await control.install(build, live)).toEqual({ replaced: false });
    expect(await control.install(build, live)).toEqual({ replaced: true });
    expect(await argvs()).toEqual([
      `simctl get_app_container ${UDID} dev.apex.WhereAmI`,
      `simctl install ${UDID} ${build.path}`,
      `simctl get_app_container ${UDID} dev.apex.WhereAmI`,
      `simctl install ${UDID} ${build.path}`,
    ]);
  });

  it('refuses an archive (simulators take .app builds) without running anything', async () => {
    expect(await codeOf(control.install({ ...build, kind: 'ipa', path: path.join(dir, 'x.ipa') }, live))).toBe('unsupported_operation');
    expect(await argvs()).toEqual([]);
  });

  it('uninstalls an installed app; an unknown one is app_not_found, a system app unsupported, neither touched', async () => {
    expect(await codeOf(control.uninstall('dev.apex.Missing', live))).toBe('app_not_found');
    expect(await codeOf(control.uninstall('com.apple.Maps', live))).toBe('unsupported_operation');
    await control.install(build, live);
    await control.uninstall('dev.apex.WhereAmI', live);
    expect((await argvs()).filter((a) => a.includes(' uninstall '))).toEqual([`simctl uninstall ${UDID} dev.apex.WhereAmI`]);
  });

  it('resets an app Apex installed: stop (not running is fine), reinstall its build, forget its permissions', async () => {
    await control.install(build, live);
    await control.reset('dev.apex.WhereAmI', live);
    expect((await argvs()).slice(2)).toEqual([
      `simctl get_app_container ${UDID} dev.apex.WhereAmI`,
      `simctl terminate ${UDID} dev.apex.WhereAmI`,
      `simctl uninstall ${UDID} dev.apex.WhereAmI`,
      `simctl install ${UDID} ${build.path}`,
      `simctl privacy ${UDID} reset all dev.apex.WhereAmI`,
    ]);
  });

  it('cannot reset an app it did not install (no build to reinstall): unsupported_operation, nothing removed', async () => {
    tools.preinstall('dev.apex.Other');
    expect(await codeOf(control.reset('dev.apex.Other', live))).toBe('unsupported_operation');
    expect((await argvs()).some((a) => a.includes('uninstall'))).toBe(false);
  });

  it('sets permissions with privacy grant / revoke / reset and simctl service names', async () => {
    await control.install(build, live);
    await control.setPermission('dev.apex.WhereAmI', 'location', 'granted', live);
    await control.setPermission('dev.apex.WhereAmI', 'locationAlways', 'denied', live);
    await control.setPermission('dev.apex.WhereAmI', 'photos', 'unset', live);
    expect((await argvs()).filter((a) => a.includes('privacy'))).toEqual([
      `simctl privacy ${UDID} grant location dev.apex.WhereAmI`,
      `simctl privacy ${UDID} revoke location-always dev.apex.WhereAmI`,
      `simctl privacy ${UDID} reset photos dev.apex.WhereAmI`,
    ]);
    expect(await codeOf(control.setPermission('dev.apex.WhereAmI', 'camera', 'granted', live))).toBe('unsupported_operation');
    expect(await codeOf(control.setPermission('dev.apex.Missing', 'location', 'granted', live))).toBe('app_not_found');
  });

  it('simulates biometrics with the Darwin notifications Simulator.app posts', async () => {
    await control.biometric('enroll', live);
    await control.biometric('match', live);
    await control.biometric('fail', live);
    expect(await argvs()).toEqual([
      `simctl spawn ${UDID} notifyutil -s com.apple.BiometricKit.enrollmentChanged 1`,
      `simctl spawn ${UDID} notifyutil -p com.apple.BiometricKit.enrollmentChanged`,
      `simctl spawn ${UDID} notifyutil -p com.apple.BiometricKit_Sim.pearl.match`,
      `simctl spawn ${UDID} notifyutil -p com.apple.BiometricKit_Sim.fingerTouch.match`,
      `simctl spawn ${UDID} notifyutil -p com.apple.BiometricKit_Sim.pearl.nomatch`,
      `simctl spawn ${UDID} notifyutil -p com.apple.BiometricKit_Sim.fingerTouch.nomatch`,
    ]);
  });

  it('pushes an APNs payload on stdin, and adds media by path', async () => {
    await control.install(build, live);
    await control.push({ appId: 'dev.apex.WhereAmI', title: 'Arrived', body: 'Hello', payload: { trip: 7 } }, live);
    await control.addMedia({ path: '/tmp/photo.png', kind: 'photo' }, live);
    const calls = xcrunCalls();
    const push = calls.find((c) => c.args[1] === 'push');
    expect(push?.args).toEqual(['simctl', 'push', UDID, 'dev.apex.WhereAmI', '-']);
    expect(JSON.parse(push?.stdin ?? '{}')).toEqual({ trip: 7, aps: { alert: { title: 'Arrived', body: 'Hello' } } });
    expect(calls[calls.length - 1]?.args).toEqual(['simctl', 'addmedia', UDID, '/tmp/photo.png']);
  });

  it('says so when this machine has no xcrun (unsupported_operation, with the way out)', async () => {
    const bare = createSimctlControl({ deviceId: 'sim-1', udid: UDID, env: { ...tools.env, PATH: path.join(dir, 'empty') } });
    let error: unknown;
    try {
      await bare.addMedia({ path: '/tmp/photo.png', kind: 'photo' }, live);
    } catch (e) {
      error = e;
    }
    expect((error as ApexError).code).toBe('unsupported_operation');
    expect((error as ApexError).message).not.toMatch(/simctl|xcrun/);
  });
});

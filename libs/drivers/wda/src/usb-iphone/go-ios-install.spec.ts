import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApexError, LEAKY_WORDS } from '@apex/errors';
import type { AppBuild } from '@apex/port';
import { installStandIns, type StandIns } from '@apex/ios-host/testing';
import { xmlPlist } from '@apex/testing';
import { createWdaDriver, type WdaDriver } from '../wda-driver';

const UDID = '00008110-000A1B2C3D4E801E';
const live = new AbortController().signal;
const USB = [{ Udid: UDID, ProductName: 'iPhone OS', ProductType: 'iPhone14,5', ProductVersion: '17.5', ConnectionType: 'USB' }];

async function failure(promise: Promise<unknown> | undefined): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApexError) return error;
    throw new Error(`not an ApexError: ${String(error)}`);
  }
  throw new Error('resolved');
}

/**
 * A real iPhone over USB (no simulator): the WDA driver installs through go-ios, here a stand-in `ios` on PATH
 * answering in go-ios' formats (stand-in-tool.js). The agent itself is never contacted by an install.
 */
describe('installing on a USB iPhone through go-ios (a stand-in `ios` on PATH)', () => {
  let dir: string;
  let tools: StandIns;
  let driver: WdaDriver;
  let build: AppBuild;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'apex-go-ios-'));
    tools = installStandIns({ usb: USB });
    driver = createWdaDriver({ deviceId: 'iphone-usb', url: 'http://127.0.0.1:9', usbIPhone: { udid: UDID, goIos: 'ios', env: tools.env } });
    const app = path.join(dir, 'WhereAmI.app');
    await mkdir(app);
    await writeFile(path.join(app, 'Info.plist'), xmlPlist({ CFBundleIdentifier: 'dev.apex.WhereAmI', CFBundleName: 'Where Am I' }));
    build = { path: app, kind: 'app', appId: 'dev.apex.WhereAmI', name: 'Where Am I' };
  });
  afterEach(async () => {
    tools.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the apps (replaced?), then `ios install --path --udid`; a second install replaces', async () => {
    expect(await driver.installApp?.(build, live)).toEqual({ replaced: false });
    expect(await driver.installApp?.(build, live)).toEqual({ replaced: true });
    expect(tools.calls().map((c) => [c.tool, ...c.args].join(' '))).toEqual([
      `ios apps --list --udid=${UDID}`,
      `ios install --path=${build.path} --udid=${UDID}`,
      `ios apps --list --udid=${UDID}`,
      `ios install --path=${build.path} --udid=${UDID}`,
    ]);
    // Only install: the rest of the simulator's host abilities stay absent on a real iPhone.
    expect([driver.uninstallApp, driver.resetApp, driver.setPermission, driver.pushNotification]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a refused build is device_error; go-ios’ own words stay in the cause', async () => {
    tools.setScenario({ usb: USB, usbInstallError: 'ApplicationVerificationFailed: Failed to verify code signature' });
    const error = await failure(driver.installApp?.(build, live));
    expect(error.code).toBe('device_error');
    expect(error.message).toBe('Device iphone-usb did not install "Where Am I".');
    expect(String((error.cause as Error).message)).toContain('ApplicationVerificationFailed');
    expect(`${error.message} ${error.hint}`).not.toMatch(/go-ios|zipconduit|ios install|Verification/);
  });

  it('without go-ios: unsupported_operation naming how to enable it; an Android build is invalid_argument', async () => {
    const missing = createWdaDriver({ deviceId: 'iphone-usb', url: 'http://127.0.0.1:9', usbIPhone: { udid: UDID, goIos: path.join(dir, 'no-such-ios'), env: tools.env } });
    const error = await failure(missing.installApp?.(build, live));
    expect(error.code).toBe('unsupported_operation');
    expect(error.hint).toBe('Install it (npm i go-ios) or set ios.goIos in the configuration to its binary, then retry.');
    expect(error.message).not.toMatch(LEAKY_WORDS);
    expect((await failure(driver.installApp?.({ ...build, kind: 'apk' }, live))).code).toBe('invalid_argument');
    expect(tools.calls()).toEqual([]);
  });

  it('without a USB iPhone or a simulator, the driver has no install at all (the hub answers unsupported)', () => {
    expect(createWdaDriver({ deviceId: 'wifi', url: 'http://127.0.0.1:9' }).installApp).toBeUndefined();
  });
});

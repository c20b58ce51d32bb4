import { createAppiumDriver, type AppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';

const live = new AbortController().signal;
const APP = 'dev.apex.WhereAmI';

/**
 * The developer's loop through a real Appium server (XCUITest driver, webDriverAgentUrl mode) to the virtual
 * iPhone: the `mobile:` commands the agent serves (state, background, simulated location, launch options),
 * with what reached the agent recorded in between; and the server's own simulator-only commands, which it
 * refuses here (the exact commands sent are checked in driver-appium's app-loop.spec.ts).
 */
describe("driver-appium: the developer's loop through Appium to the virtual iPhone", () => {
  let server: AppiumServer;
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let driver: AppiumDriver;

  const agentSaw = (from: number) =>
    proxy.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/^\/session\/[^/]+/, '/session/:id')} ${r.body}`.trim());

  beforeAll(async () => {
    [server, iphone] = await Promise.all([startAppiumServer(), startVirtualIPhone({ port: 0 })]);
    proxy = await new RecordingProxy(iphone.url).start();
    driver = createAppiumDriver({ deviceId: 'iphone-al', serverUrl: server.url, capabilities: iosCapabilities(proxy.url) });
    iphone.phone.installApp({ bundleId: APP, name: 'Where Am I' });
    await driver.screen(live);
  }, 120_000);
  afterAll(async () => {
    await driver?.close(live);
    await server?.close();
    await proxy?.close();
    await iphone?.close();
  });

  it('reads states (mobile: queryAppState) and backgrounds (home; deactivateApp with seconds)', async () => {
    expect(await driver.appState?.('dev.apex.Nothing', live)).toBe('notInstalled');
    await driver.launchApp(APP, live);
    expect(await driver.appState?.(APP, live)).toBe('foreground');
    await driver.backgroundApp?.(undefined, live);
    expect(await driver.appState?.(APP, live)).toBe('background');
    await driver.launchApp(APP, live);
    const start = proxy.requests.length;
    await driver.backgroundApp?.(0.1, live);
    expect(agentSaw(start).filter((l) => l.includes('deactivateApp'))).toEqual([`POST /session/:id/wda/deactivateApp ${JSON.stringify({ duration: 0.1 })}`]);
    expect(iphone.phone.activeApp().bundleId).toBe(APP);
  });

  it('simulates a location and clears it', async () => {
    await driver.setLocation?.({ latitude: 35.6586, longitude: 139.7454 }, live);
    expect(iphone.phone.location()).toEqual({ latitude: 35.6586, longitude: 139.7454 });
    await driver.setLocation?.(undefined, live);
    expect(iphone.phone.location()).toBeNull();
  });

  it('launches with arguments, environment and locale: the new process gets them', async () => {
    await driver.launchAppWith?.(APP, { arguments: ['-Demo'], environment: { MODE: 'test' }, locale: 'ja-JP' }, live);
    expect(iphone.phone.launchInfo(APP)).toEqual({ arguments: ['-Demo', '-AppleLanguages', '(ja-JP)', '-AppleLocale', 'ja_JP'], environment: { MODE: 'test' } });
    await expect(driver.launchAppWith?.('dev.apex.Nothing', { arguments: ['-x'] }, live)).rejects.toMatchObject({ code: 'app_not_found' });
  });

  it('the simulator-only commands: the real server refuses them for this phone (it takes it for a real iPhone), which Apex says as unsupported', async () => {
    const refusals = [
      () => driver.setPermission?.(APP, 'location', 'granted', live),
      () => driver.biometric?.('match', live),
      () => driver.biometric?.('enroll', live),
      () => driver.pushNotification?.({ appId: APP, title: 'Hello', body: 'there' }, live),
      () => driver.resetApp?.(APP, live),
      // Not sent at all: on a real iPhone the same command would write a plain file, not a photo.
      () => driver.addMedia?.({ path: __filename, kind: 'photo' }, live),
    ];
    for (const refusal of refusals) {
      const error = await Promise.resolve(refusal()).then(
        () => undefined,
        (e: unknown) => e as { code?: string; message: string },
      );
      expect(error).toMatchObject({ code: 'unsupported_operation', message: expect.stringMatching(/works on an iOS simulator only/) });
      expect(error?.message).not.toMatch(/Simulator|mobile:|simctl|xcuitest|appium/);
    }
  });
});

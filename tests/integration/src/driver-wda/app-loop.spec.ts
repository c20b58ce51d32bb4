import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import { virtualSimulatorControl } from '@apex/runtime';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy } from './support/recording-proxy';

const live = new AbortController().signal;
const APP = 'dev.apex.WhereAmI';

/** driver-wda's developer's-loop abilities over real HTTP: the WDA routes it sends, and what the phone did. */
describe("driver-wda: the developer's loop against the virtual iPhone", () => {
  let iphone: VirtualIPhone;
  let proxy: RecordingProxy;
  let driver: WdaDriver;

  const sent = (from: number) =>
    proxy.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/^\/session\/[^/]+/, '/session/:id')} ${r.body}`.trim());

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
    proxy = await new RecordingProxy(iphone.url).start();
    driver = createWdaDriver({ deviceId: 'iphone-l', url: proxy.url, simulator: virtualSimulatorControl(iphone, 'iphone-l') });
    iphone.phone.installApp({ bundleId: APP, name: 'Where Am I' });
  });
  afterAll(async () => {
    await driver.close(live);
    await proxy.close();
    await iphone.close();
  });

  it('reads app states through POST /wda/apps/state: notInstalled, notRunning, foreground, background', async () => {
    expect(await driver.appState('dev.apex.Nothing', live)).toBe('notInstalled');
    expect(await driver.appState(APP, live)).toBe('notRunning');
    await driver.launchApp(APP, live);
    const start = proxy.requests.length;
    expect(await driver.appState(APP, live)).toBe('foreground');
    expect(sent(start)).toEqual([`POST /session/:id/wda/apps/state ${JSON.stringify({ bundleId: APP })}`]);
    await driver.backgroundApp(undefined, live);
    expect(await driver.appState(APP, live)).toBe('background');
  });

  it('backgrounds: the home screen without seconds; /wda/deactivateApp {duration} brings the app back', async () => {
    await driver.launchApp(APP, live);
    let start = proxy.requests.length;
    await driver.backgroundApp(undefined, live);
    expect(sent(start)).toEqual(['POST /wda/homescreen']);
    expect(iphone.phone.activeApp().bundleId).toBe('com.apple.springboard');
    await driver.launchApp(APP, live);
    start = proxy.requests.length;
    await driver.backgroundApp(0.1, live);
    expect(sent(start)).toEqual([`POST /session/:id/wda/deactivateApp ${JSON.stringify({ duration: 0.1 })}`]);
    expect(iphone.phone.activeApp().bundleId).toBe(APP);
  });

  it('simulates a location with POST /wda/simulatedLocation and clears it with DELETE; an altitude it cannot pass is refused', async () => {
    let start = proxy.requests.length;
    await driver.setLocation({ latitude: 51.5007, longitude: -0.1246 }, live);
    expect(sent(start)).toEqual([`POST /wda/simulatedLocation ${JSON.stringify({ latitude: 51.5007, longitude: -0.1246 })}`]);
    expect(iphone.phone.location()).toEqual({ latitude: 51.5007, longitude: -0.1246 });
    start = proxy.requests.length;
    await driver.setLocation(undefined, live);
    expect(sent(start)).toEqual(['DELETE /wda/simulatedLocation']);
    expect(iphone.phone.location()).toBeNull();
    start = proxy.requests.length;
    await expect(driver.setLocation({ latitude: 1, longitude: 2, altitude: 30 }, live)).rejects.toMatchObject({ code: 'unsupported_operation' });
    expect(sent(start)).toEqual([]);
  });

  it('launches with arguments, environment and locale: the app restarts and its process gets them', async () => {
    await driver.launchApp(APP, live);
    const start = proxy.requests.length;
    await driver.launchAppWith(APP, { arguments: ['-Demo', 'YES'], environment: { API_URL: 'http://127.0.0.1:1' }, locale: 'de-CH' }, live);
    const args = ['-Demo', 'YES', '-AppleLanguages', '(de-CH)', '-AppleLocale', 'de_CH'];
    expect(sent(start)).toEqual([
      `POST /session/:id/wda/apps/terminate ${JSON.stringify({ bundleId: APP })}`,
      `POST /session/:id/wda/apps/launch ${JSON.stringify({ bundleId: APP, arguments: args, environment: { API_URL: 'http://127.0.0.1:1' } })}`,
    ]);
    expect(iphone.phone.launchInfo(APP)).toEqual({ arguments: args, environment: { API_URL: 'http://127.0.0.1:1' } });
    await expect(driver.launchAppWith('dev.apex.Nothing', { arguments: ['-x'] }, live)).rejects.toMatchObject({ code: 'app_not_found' });
  });

  it('has the simulator abilities only with a simulator control', async () => {
    const plain = createWdaDriver({ deviceId: 'iphone-p', url: proxy.url });
    for (const ability of ['installApp', 'uninstallApp', 'resetApp', 'setPermission', 'biometric', 'pushNotification', 'addMedia'] as const) {
      expect({ ability, plain: typeof plain[ability], simulator: typeof driver[ability] }).toEqual({ ability, plain: 'undefined', simulator: 'function' });
    }
    await plain.close(live);
  });

  it('the simulator control answers in neutral errors: unknown app, system app', async () => {
    await expect(driver.uninstallApp?.('dev.apex.Nothing', live)).rejects.toMatchObject({ code: 'app_not_found' });
    await expect(driver.uninstallApp?.('com.apple.Maps', live)).rejects.toMatchObject({ code: 'unsupported_operation' });
    await expect(driver.setPermission?.('dev.apex.Nothing', 'camera', 'granted', live)).rejects.toMatchObject({ code: 'app_not_found' });
  });
});

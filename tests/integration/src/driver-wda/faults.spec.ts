import { DeviceHub, deviceStatus, launchApp, tap } from '@apex/hub';
import { ApexError, toPublicError } from '@apex/errors';
import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { rejectionOf } from '@apex/errors/testing';


function expectNeutral(error: ApexError, deviceId: string): void {
  expect(error.message).toContain(deviceId);
  // The public form keeps the message: it holds no protocol words or raw system errors.
  expect(toPublicError(error).message).toBe(error.message);
}

describe('driver-wda through the hub: device faults over real HTTP', () => {
  let iphone: VirtualIPhone;
  let hub: DeviceHub;
  let driver: WdaDriver;
  const id = 'iphone-f';

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
  });
  afterAll(() => iphone.close());

  beforeEach(async () => {
    iphone.faults.reset();
    driver = createWdaDriver({ deviceId: id, url: iphone.url, connectTimeoutMs: 1_000 });
    hub = new DeviceHub({ backoff: { initialMs: 100, maxMs: 400 } });
    hub.register({ id, driver, actionTimeoutMs: 1_000 });
    await hub.screen(id);
  });
  afterEach(async () => {
    iphone.faults.reset();
    await hub.close();
  });

  // A refused connection is `device_offline` at once: had the call waited for the action limit (1 s here), it
  // would be `device_timeout` instead — the code proves it did not wait, with no clock in the test.
  it('offline: fails with device_offline (not a timeout), fails fast meanwhile, and recovers on its own', async () => {
    await iphone.faults.goOffline();
    try {
      const error = await rejectionOf(tap(hub, id, { x: 10, y: 300 }));
      expect(error.code).toBe('device_offline');
      expectNeutral(error, id);
      expect(hub.summary(id).state).toBe('offline');
      expect((await rejectionOf(tap(hub, id, { x: 10, y: 300 }))).code).toBe('device_offline');
    } finally {
      await iphone.faults.comeBack();
    }
    // No restart of anything: the hub's background probe notices the device is back.
    await eventually(() => hub.summary(id).state === 'online', { timeoutMs: 20_000, what: 'the device to come back online' });
    await tap(hub, id, { x: 10, y: 300 });
  });

  it('restart: the next call succeeds through a new session', async () => {
    await tap(hub, id, { x: 10, y: 300 });
    const before = driver.sessionId;
    expect(before).toBeDefined();
    iphone.faults.restart();
    await launchApp(hub, id, 'com.apple.Preferences');
    expect(iphone.phone.activeApp().bundleId).toBe('com.apple.Preferences');
    expect(driver.sessionId).toBeDefined();
    expect(driver.sessionId).not.toBe(before);
  });

  it("slow device: device_timeout at the hub's limit, then the queue moves on", async () => {
    iphone.faults.setLatency(5_000);
    const error = await rejectionOf(tap(hub, id, { x: 10, y: 300 }));
    expect(error.code).toBe('device_timeout');
    expectNeutral(error, id);
    iphone.faults.setLatency(0);
    await tap(hub, id, { x: 11, y: 300 });
    expect(hub.summary(id).state).toBe('online');
  });

  it('malformed reply: device_error, and the next call works', async () => {
    iphone.faults.malformNext(1);
    const error = await rejectionOf(tap(hub, id, { x: 10, y: 300 }));
    expect(error.code).toBe('device_error');
    expectNeutral(error, id);
    await tap(hub, id, { x: 10, y: 300 });
  });

  it('server error: device_error with a neutral message, the raw text only in the cause', async () => {
    iphone.faults.failNext(1);
    const error = await rejectionOf(tap(hub, id, { x: 10, y: 300 }));
    expect(error.code).toBe('device_error');
    expectNeutral(error, id);
    expect(error.cause).toBeDefined();
    expect(hub.summary(id).state).toBe('online');
  });

  it('dropped connection: device_offline, then back on the next attempt after the back-off', async () => {
    iphone.faults.dropNext(1);
    expect((await rejectionOf(tap(hub, id, { x: 10, y: 300 }))).code).toBe('device_offline');
    await eventually(() => hub.summary(id).state === 'online', { timeoutMs: 20_000, what: 'the device to come back online' });
    expect((await deviceStatus(hub, id)).state).toBe('online');
  });

  it('unknown app: app_not_found', async () => {
    const error = await rejectionOf(launchApp(hub, id, 'com.example.missing'));
    expect(error.code).toBe('app_not_found');
    expectNeutral(error, id);
  });
});

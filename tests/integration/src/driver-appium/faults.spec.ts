import * as net from 'node:net';
import { DeviceHub, deviceStatus, inputText, launchApp, tap } from '@apex/hub';
import type { DeviceDriver } from '@apex/port';
import { createAppiumDriver, type AppiumDriver } from '@apex/driver-appium';
import { iosCapabilities, startAppiumServer, type AppiumServer } from '@apex/driver-appium/testing';
import { createWdaDriver } from '@apex/driver-wda';
import { ApexError, toPublicError } from '@apex/errors';
import { SETTINGS_BUNDLE_ID, startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { eventually } from '@apex/testing';
import { rejectionOf } from '@apex/errors/testing';


/** One driver through its own hub, on its own virtual iPhone (each phone gets the same faults). */
interface Subject {
  name: 'wda' | 'appium';
  iphone: VirtualIPhone;
  hub: DeviceHub;
  driver: DeviceDriver;
}

const ID = 'iphone-f';

describe('driver-appium and driver-wda answer the same faults with the same codes', () => {
  let server: AppiumServer;
  let wdaPhone: VirtualIPhone;
  let appiumPhone: VirtualIPhone;
  let subjects: Subject[];
  let appium: AppiumDriver;

  beforeAll(async () => {
    [server, wdaPhone, appiumPhone] = await Promise.all([
      startAppiumServer(),
      startVirtualIPhone({ port: 0 }),
      startVirtualIPhone({ port: 0 }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    await wdaPhone?.close();
    await appiumPhone?.close();
  });

  beforeEach(async () => {
    wdaPhone.faults.reset();
    appiumPhone.faults.reset();
    const limits = { connectTimeoutMs: 1_000 };
    appium = createAppiumDriver({
      deviceId: ID,
      serverUrl: server.url,
      capabilities: iosCapabilities(appiumPhone.url),
      sessionStartTimeoutMs: 20_000,
      ...limits,
    });
    const make = (name: Subject['name'], iphone: VirtualIPhone, driver: DeviceDriver): Subject => {
      const hub = new DeviceHub({ backoff: { initialMs: 100, maxMs: 400 } });
      hub.register({ id: ID, driver, actionTimeoutMs: 20_000 });
      return { name, iphone, hub, driver };
    };
    subjects = [
      make('wda', wdaPhone, createWdaDriver({ deviceId: ID, url: wdaPhone.url, ...limits })),
      make('appium', appiumPhone, appium),
    ];
    for (const subject of subjects) await subject.hub.screen(ID);
  });
  afterEach(async () => {
    for (const subject of subjects) {
      subject.iphone.faults.reset();
      await subject.hub.close();
    }
  });

  /** Runs the same failing call on both drivers; returns the errors by driver name. */
  async function bothFail(call: (subject: Subject) => Promise<unknown>): Promise<Record<Subject['name'], ApexError>> {
    const [wda, viaServer] = await Promise.all(subjects.map((subject) => rejectionOf(call(subject))));
    for (const error of [wda, viaServer] as ApexError[]) {
      expect(error.message).toContain(ID);
      // Neutral text: the public form keeps the message (no protocol words, no raw system errors).
      expect(toPublicError(error).message).toBe(error.message);
      expect(error.cause).toBeDefined();
    }
    return { wda: wda as ApexError, appium: viaServer as ApexError };
  }

  it('device offline: device_offline for both (the server stays up), and both recover on their own', async () => {
    await Promise.all(subjects.map((s) => s.iphone.faults.goOffline()));
    try {
      const errors = await bothFail((s) => tap(s.hub, ID, { x: 10, y: 300 }));
      expect([errors.wda.code, errors.appium.code]).toEqual(['device_offline', 'device_offline']);
      expect(errors.appium.message).toMatch(/cannot reach the phone/);
      for (const s of subjects) expect(s.hub.summary(ID).state).toBe('offline');
    } finally {
      await Promise.all(subjects.map((s) => s.iphone.faults.comeBack()));
    }
    for (const s of subjects) {
      await eventually(() => s.hub.summary(ID).state === 'online', { timeoutMs: 20_000, what: `${s.name} to come back online` });
      await tap(s.hub, ID, { x: 10, y: 300 });
    }
  });

  it('no focused text field: element_not_found for both, with the same hint', async () => {
    const errors = await bothFail((s) => inputText(s.hub, ID, { text: 'nowhere' }));
    expect([errors.wda.code, errors.appium.code]).toEqual(['element_not_found', 'element_not_found']);
    expect(errors.appium.hint).toBe(errors.wda.hint);
  });

  it('unknown app: app_not_found for both', async () => {
    const errors = await bothFail((s) => launchApp(s.hub, ID, 'com.example.missing'));
    expect([errors.wda.code, errors.appium.code]).toEqual(['app_not_found', 'app_not_found']);
    expect(errors.appium.message).toBe(errors.wda.message);
  });

  it('server error on the phone: device_error for both, and the next call works', async () => {
    for (const s of subjects) s.iphone.faults.failNext(1);
    const errors = await bothFail((s) => tap(s.hub, ID, { x: 10, y: 300 }));
    expect([errors.wda.code, errors.appium.code]).toEqual(['device_error', 'device_error']);
    for (const s of subjects) await tap(s.hub, ID, { x: 10, y: 300 });
  });

  it('malformed reply from the phone: device_error for both', async () => {
    for (const s of subjects) s.iphone.faults.malformNext(1);
    const errors = await bothFail((s) => tap(s.hub, ID, { x: 10, y: 300 }));
    expect([errors.wda.code, errors.appium.code]).toEqual(['device_error', 'device_error']);
  });

  it('dropped connection to the phone: device_offline for both, then back', async () => {
    for (const s of subjects) s.iphone.faults.dropNext(1);
    const errors = await bothFail((s) => tap(s.hub, ID, { x: 10, y: 300 }));
    expect([errors.wda.code, errors.appium.code]).toEqual(['device_offline', 'device_offline']);
    for (const s of subjects) {
      await eventually(() => s.hub.summary(ID).state === 'online', { timeoutMs: 20_000, what: `${s.name} to come back online` });
      expect((await deviceStatus(s.hub, ID)).state).toBe('online');
    }
  });

  it("slow phone: device_timeout for both at the hub's limit, then the next call works", async () => {
    for (const s of subjects) s.iphone.faults.setLatency(5_000);
    // The hub owns the limit and aborts the request; its own timeout error has no driver cause to keep.
    const errors = await Promise.all(
      subjects.map((s) => rejectionOf(s.hub.run(ID, 'tap', (d, signal) => d.tap({ x: 10, y: 300 }, signal), { timeoutMs: 1_500 }))),
    );
    expect(errors.map((e) => e.code)).toEqual(['device_timeout', 'device_timeout']);
    for (const error of errors) expect(toPublicError(error).message).toBe(error.message);
    for (const s of subjects) s.iphone.faults.setLatency(0);
    for (const s of subjects) await tap(s.hub, ID, { x: 11, y: 300 });
  });

  it('restart of the on-device agent: the next call succeeds through a rebuilt session', async () => {
    const before = appium.sessionId;
    expect(before).toBeDefined();
    appiumPhone.faults.restart();
    const viaServer = subjects.find((s) => s.name === 'appium') as Subject;
    await launchApp(viaServer.hub, ID, SETTINGS_BUNDLE_ID);
    expect(appiumPhone.phone.activeApp().bundleId).toBe(SETTINGS_BUNDLE_ID);
    expect(appium.sessionId).toBeDefined();
    expect(appium.sessionId).not.toBe(before);
  });

  it('the phone unreachable when the first session is created: device_offline, no session kept', async () => {
    const agentUrl = await unusedLoopbackUrl();
    const driver = createAppiumDriver({ deviceId: ID, serverUrl: server.url, capabilities: iosCapabilities(agentUrl, 'late-phone') });
    try {
      const error = await rejectionOf(driver.tap({ x: 10, y: 300 }, new AbortController().signal));
      expect(error.code).toBe('device_offline');
      expect(error.message).toMatch(/cannot reach the phone/);
      expect(toPublicError(error).message).toBe(error.message);
      expect(driver.sessionId).toBeUndefined();
    } finally {
      await driver.close(AbortSignal.timeout(5_000));
    }
  });

  it('the server itself unreachable: device_offline, with its own hint', async () => {
    const hub = new DeviceHub({ backgroundProbes: false });
    // A port nothing listens on: the phone is fine, the server is not there.
    const closed = await unusedLoopbackUrl();
    hub.register({
      id: ID,
      driver: createAppiumDriver({ deviceId: ID, serverUrl: closed, capabilities: iosCapabilities(appiumPhone.url), connectTimeoutMs: 1_000 }),
    });
    try {
      const error = await rejectionOf(tap(hub, ID, { x: 10, y: 300 }));
      expect(error.code).toBe('device_offline');
      expect(error.message).toMatch(/automation server configured for it does not answer/);
      expect(toPublicError(error).message).toBe(error.message);
    } finally {
      await hub.close();
    }
  });
});

/** The URL of a loopback port that was free a moment ago (nothing listens there). */
async function unusedLoopbackUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

import { listAdbDevices, trackAdbDevices, type AdbDeviceEntry } from '@apex/driver-adb';
import { eventually } from '@apex/testing';
import { createVirtualAndroid, startAdbd, type Adbd } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';

const live = (): AbortSignal => AbortSignal.timeout(10_000);

/** Android phones appearing and going away while Apex watches the real adb server's device list. */
describeWithRealAdb('the adb server device list, followed live', () => {
  let adb: RealAdbServer;

  beforeAll(async () => {
    adb = await startRealAdbServer();
  }, 60_000);
  afterAll(async () => {
    await adb?.stop();
  }, 30_000);

  it('announces a phone connected after tracking began; lists it offline once its adbd stops', async () => {
    const tracking = new AbortController();
    const server = { host: '127.0.0.1', port: adb.port };
    const lists = trackAdbDevices(server, tracking.signal);
    const next = async (): Promise<AdbDeviceEntry[]> => {
      const { value, done } = await lists.next();
      if (done) throw new Error('tracking ended');
      return value;
    };
    // The first list comes at once (none of our phones yet).
    const first = await next();
    let adbd: Adbd | undefined;
    try {
      adbd = await startAdbd({ backend: createVirtualAndroid().backend, host: '127.0.0.1' });
      const serial = adbd.serial;
      expect(first.some((d) => d.serial === serial)).toBe(false);
      const connected = await adb.run(['connect', serial]);
      expect(connected.stdout.toString()).toContain('connected');
      let list = await next();
      while (!list.some((d) => d.serial === serial && d.state === 'device')) list = await next();
      expect(list.find((d) => d.serial === serial)).toMatchObject({ serial, state: 'device', model: expect.any(String) });
      await expect(listAdbDevices(server, live())).resolves.toContainEqual(expect.objectContaining({ serial, state: 'device' }));

      await adbd.close();
      adbd = undefined;
      // adb keeps a TCP device it lost as `offline` (and retries it); the tracking stream may not announce that.
      await eventually(async () => (await listAdbDevices(server, live())).some((d) => d.serial === serial && d.state === 'offline'), { timeoutMs: 30_000, what: 'the stopped phone listed offline' });
    } finally {
      tracking.abort();
      await adbd?.close();
    }
  }, 60_000);
});

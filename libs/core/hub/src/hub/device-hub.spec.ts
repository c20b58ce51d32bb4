import { ApexError } from '@apex/errors';
import { FakeDriver } from '../testing';
import { DeviceHub } from './device-hub';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof ApexError ? error.code : `non-apex: ${String(error)}`;
  }
}

describe('DeviceHub queue', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('runs 100 concurrent actions on one device in FIFO order, never interleaved', async () => {
    hub = new DeviceHub();
    const driver = new FakeDriver();
    hub.register({ id: 'a', driver });
    const log: string[] = [];
    const actions = Array.from({ length: 100 }, (_, i) =>
      hub.run('a', `action ${i}`, async (d) => {
        log.push(`start ${i}`);
        // Yield several times so an interleaving queue would show it.
        for (let k = 0; k < 3; k += 1) await new Promise((r) => setImmediate(r));
        await d.tap({ x: i, y: i });
        log.push(`end ${i}`);
        return i;
      }),
    );
    expect(await Promise.all(actions)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(log).toEqual(Array.from({ length: 100 }, (_, i) => [`start ${i}`, `end ${i}`]).flat());
    expect(driver.callsOf('tap').map((c) => (c.args[0] as { x: number }).x)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it('runs two devices in parallel: a blocked action on A does not delay B', async () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver() });
    hub.register({ id: 'b', driver: new FakeDriver() });
    const gate = deferred();
    const onA = hub.run('a', 'slow', async () => gate.promise);
    const onB = await hub.run('b', 'quick', async () => 'b done');
    expect(onB).toBe('b done');
    expect(hub.summary('a').state).toBe('busy');
    expect(hub.summary('b').state).toBe('online');
    gate.resolve();
    await onA;
    expect(hub.summary('a').state).toBe('online');
  });

  it('times out an action with device_timeout and moves on to the next one', async () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver(), actionTimeoutMs: 50 });
    const never = new Promise<void>(() => undefined);
    const stuck = hub.run('a', 'stuck', async () => never);
    const next = hub.run('a', 'next', async () => 'next ran');
    const error = await stuck.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe('device_timeout');
    expect((error as ApexError).message).toMatch(/Device a did not finish "stuck"/);
    expect(await next).toBe('next ran');
  });

  it('does not let a failing action poison the queue', async () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver() });
    const failing = hub.run('a', 'bad', async () => {
      throw new ApexError('element_not_found', 'nope');
    });
    const crashing = hub.run('a', 'bug', async () => {
      throw new TypeError('undefined is not a function');
    });
    const ok = hub.run('a', 'good', async () => 42);
    expect(await codeOf(failing)).toBe('element_not_found');
    expect(await codeOf(crashing)).toBe('internal');
    expect(await ok).toBe(42);
    expect(hub.summary('a').state).toBe('online');
  });
});

describe('DeviceHub health', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('goes offline on a connection failure, fails fast while backing off, and recovers after it', async () => {
    let now = 1_000;
    hub = new DeviceHub({ now: () => now, backgroundProbes: false, backoff: { initialMs: 250, maxMs: 1_000 } });
    const driver = new FakeDriver();
    hub.register({ id: 'a', driver });
    driver.offline = true;
    expect(await codeOf(hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 })))).toBe('device_offline');
    expect(hub.summary('a').state).toBe('offline');

    const callsBefore = driver.calls.length;
    expect(await codeOf(hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 })))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore); // failed fast, the driver was not called

    now += 250; // back-off expired: the next call tries the device again, which is still down
    expect(await codeOf(hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 })))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore + 1);

    now += 250; // the back-off doubled to 500 ms: still failing fast
    expect(await codeOf(hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 })))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore + 1);

    driver.offline = false;
    now += 250;
    await hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 }));
    expect(hub.summary('a').state).toBe('online');
  });

  it('caps the back-off and resets it after a success', async () => {
    let now = 0;
    hub = new DeviceHub({ now: () => now, backgroundProbes: false, backoff: { initialMs: 100, maxMs: 400 } });
    const driver = new FakeDriver();
    hub.register({ id: 'a', driver });
    driver.offline = true;
    const attempt = () => codeOf(hub.run('a', 'x', (d) => d.tap({ x: 1, y: 1 })));
    const delays: number[] = [];
    expect(await attempt()).toBe('device_offline');
    for (let i = 0; i < 5; i += 1) {
      // Step the clock until the device is tried again; that wait is the current back-off.
      let waited = 0;
      for (;;) {
        now += 50;
        waited += 50;
        const calls = driver.calls.length;
        expect(await attempt()).toBe('device_offline');
        if (driver.calls.length > calls) break;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([100, 200, 400, 400, 400]);
    driver.offline = false;
    now += 400;
    await hub.run('a', 'x', async () => undefined);
    expect(hub.summary('a').state).toBe('online');
  });

  it('probes an offline device in the background and brings it back online', async () => {
    jest.useFakeTimers();
    try {
      hub = new DeviceHub({ backoff: { initialMs: 250, maxMs: 10_000 } });
      const driver = new FakeDriver();
      hub.register({ id: 'a', driver });
      driver.offline = true;
      expect(await codeOf(hub.run('a', 'tap', (d) => d.tap({ x: 1, y: 1 })))).toBe('device_offline');
      await jest.advanceTimersByTimeAsync(250);
      expect(driver.callsOf('ping').length).toBe(1);
      expect(hub.summary('a').state).toBe('offline');
      driver.offline = false;
      await jest.advanceTimersByTimeAsync(500);
      expect(driver.callsOf('ping').length).toBe(2);
      expect(hub.summary('a').state).toBe('online');
    } finally {
      jest.useRealTimers();
    }
  });

  it('probe() checks the device on demand, with status() when the driver has no ping', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new FakeDriver({ withoutPing: true });
    hub.register({ id: 'a', driver });
    driver.offline = true;
    expect(await hub.probe('a')).toBe('offline');
    driver.offline = false;
    expect(await hub.probe('a')).toBe('online');
    expect(driver.callsOf('status').length).toBe(2);
  });

  it('keeps a device online after a timeout or a device error', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'a', driver: new FakeDriver(), actionTimeoutMs: 20 });
    await codeOf(hub.run('a', 'stuck', () => new Promise(() => undefined)));
    await codeOf(hub.run('a', 'err', async () => {
      throw new ApexError('device_error', 'x');
    }));
    expect(hub.summary('a').state).toBe('online');
  });
});

describe('DeviceHub lookup', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('resolves an omitted id to the only device', () => {
    hub = new DeviceHub();
    hub.register({ id: 'only', name: 'The One', driver: new FakeDriver() });
    expect(hub.resolve()).toBe('only');
    expect(hub.resolve('only')).toBe('only');
    expect(hub.list()).toEqual([{ id: 'only', name: 'The One', platform: 'ios', state: 'online' }]);
  });

  it('answers device_not_found listing the ids for an unknown id', () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver() });
    hub.register({ id: 'b', driver: new FakeDriver() });
    const error = (() => {
      try {
        hub.resolve('zz');
      } catch (e) {
        return e as ApexError;
      }
      throw new Error('expected a throw');
    })();
    expect(error.code).toBe('device_not_found');
    expect(error.message).toMatch(/"zz"/);
    expect(error.hint).toBe('Use one of: a, b.');
  });

  it('answers invalid_argument listing the ids when the id is omitted with several devices', () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver() });
    hub.register({ id: 'b', driver: new FakeDriver() });
    expect(() => hub.resolve()).toThrow(expect.objectContaining({ code: 'invalid_argument', message: expect.stringMatching(/a, b/) }));
  });

  it('answers device_not_found when no device exists', () => {
    hub = new DeviceHub();
    expect(() => hub.resolve()).toThrow(expect.objectContaining({ code: 'device_not_found' }));
  });

  it('rejects run() on an unknown device without throwing synchronously', async () => {
    hub = new DeviceHub();
    expect(await codeOf(hub.run('nope', 'x', async () => 1))).toBe('device_not_found');
  });

  it('rejects a duplicate id', () => {
    hub = new DeviceHub();
    hub.register({ id: 'a', driver: new FakeDriver() });
    expect(() => hub.register({ id: 'a', driver: new FakeDriver() })).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });

  it('caches the screen geometry, refreshes it after a reconnect, and closes drivers', async () => {
    let now = 0;
    hub = new DeviceHub({ now: () => now, backgroundProbes: false });
    const driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    hub.register({ id: 'a', driver });
    const [first, second] = await Promise.all([hub.screen('a'), hub.screen('a')]);
    expect(first).toEqual({ width: 390, height: 844, scale: 3 });
    expect(second).toEqual(first);
    await hub.screen('a');
    expect(driver.callsOf('status').length).toBe(1);

    driver.offline = true;
    await codeOf(hub.run('a', 'x', (d) => d.tap({ x: 1, y: 1 })));
    driver.offline = false;
    driver.screen = { width: 844, height: 390, scale: 3 };
    now += 1_000;
    await hub.run('a', 'x', (d) => d.tap({ x: 1, y: 1 }));
    expect(await hub.screen('a')).toEqual({ width: 844, height: 390, scale: 3 });
    await hub.close();
    expect(driver.closed).toBe(true);
    expect(await codeOf(hub.run('a', 'x', async () => 1))).toBe('device_offline');
  });
});

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

/** A driver call that ends only when its signal aborts, rejecting with the signal's reason. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
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
    hub = new DeviceHub({ maxWaitingActions: 100 });
    const driver = new FakeDriver();
    hub.register({ id: 'a', driver });
    const log: string[] = [];
    const actions = Array.from({ length: 100 }, (_, i) =>
      hub.run('a', `action ${i}`, async (d, signal) => {
        log.push(`start ${i}`);
        // Yield several times so an interleaving queue would show it.
        for (let k = 0; k < 3; k += 1) await new Promise((r) => setImmediate(r));
        await d.tap({ x: i, y: i }, signal);
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

  it('times out an action with device_timeout, aborting its driver call, and moves on to the next one', async () => {
    jest.useFakeTimers();
    try {
      hub = new DeviceHub();
      const driver = new FakeDriver();
      driver.behave('tap', (_point, signal) => untilAborted(signal as AbortSignal));
      hub.register({ id: 'a', driver, actionTimeoutMs: 1_000 });
      const stuck = hub.run('a', 'stuck', (d, signal) => d.tap({ x: 1, y: 1 }, signal)).catch((e: unknown) => e);
      const next = hub.run('a', 'next', async () => 'next ran');
      await jest.advanceTimersByTimeAsync(999);
      expect(driver.callsOf('tap')[0].signal.aborted).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      const error = (await stuck) as ApexError;
      expect(error).toBeInstanceOf(ApexError);
      expect(error.code).toBe('device_timeout');
      expect(error.message).toMatch(/Device a did not finish "stuck" within 1000 ms/);
      // The hub's timeout is the driver call's abort reason: one timer, not two racing.
      expect(driver.callsOf('tap')[0].signal.reason).toBe(error);
      expect(await next).toBe('next ran');
    } finally {
      jest.useRealTimers();
    }
  });

  it('starts the next action only once a timed-out call that ends on abort has settled', async () => {
    jest.useFakeTimers();
    try {
      hub = new DeviceHub();
      const driver = new FakeDriver();
      driver.behave('tap', (_point, signal) => untilAborted(signal as AbortSignal));
      hub.register({ id: 'a', driver, actionTimeoutMs: 1_000 });
      const stuck = codeOf(hub.run('a', 'stuck', (d, signal) => d.tap({ x: 1, y: 1 }, signal)));
      const gesture = { from: { x: 1, y: 1 }, to: { x: 2, y: 2 }, durationMs: 50 };
      const next = hub.run('a', 'next', (d, signal) => d.swipe(gesture, signal));
      await jest.advanceTimersByTimeAsync(1_000);
      expect(await stuck).toBe('device_timeout');
      await next;
      expect(driver.events).toEqual(['start:tap', 'end:tap', 'start:swipe', 'end:swipe']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects the caller at the limit, yet holds the device until a call that ignores the abort ends', async () => {
    jest.useFakeTimers();
    try {
      hub = new DeviceHub();
      const driver = new FakeDriver();
      const late = deferred();
      driver.behave('tap', () => late.promise); // ignores its signal
      hub.register({ id: 'a', driver, actionTimeoutMs: 1_000 });
      const stuck = codeOf(hub.run('a', 'stuck', (d, signal) => d.tap({ x: 1, y: 1 }, signal)));
      const next = hub.run('a', 'next', (d, signal) => d.pressButton('home', signal));
      await jest.advanceTimersByTimeAsync(1_000);
      expect(await stuck).toBe('device_timeout');
      // Long after the limit the late call still runs: nothing else may reach the device meanwhile.
      await jest.advanceTimersByTimeAsync(60_000);
      expect(driver.events).toEqual(['start:tap']);
      expect(hub.summary('a').state).toBe('busy');
      late.resolve();
      await next;
      expect(driver.events).toEqual(['start:tap', 'end:tap', 'start:pressButton', 'end:pressButton']);
      expect(hub.summary('a').state).toBe('online');
    } finally {
      jest.useRealTimers();
    }
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

describe('DeviceHub bounded queue and callers that give up', () => {
  let hub: DeviceHub;
  let driver: FakeDriver;
  let gate: ReturnType<typeof deferred<void>>;
  afterEach(async () => {
    gate.resolve();
    await hub.close();
  });

  /** A device whose first action (a tap) blocks until `gate` opens. */
  function blockedDevice(options: ConstructorParameters<typeof DeviceHub>[0] = {}): Promise<unknown> {
    hub = new DeviceHub({ backgroundProbes: false, ...options });
    driver = new FakeDriver();
    gate = deferred();
    driver.behave('tap', () => gate.promise);
    hub.register({ id: 'a', driver });
    return hub.run('a', 'blocking tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal));
  }

  const press = (options: { signal?: AbortSignal } = {}) =>
    hub.run('a', 'press home', (d, signal) => d.pressButton('home', signal), options);

  it('refuses more than 32 waiting actions by default with a retryable device_busy', async () => {
    const running = blockedDevice();
    const waiting = Array.from({ length: 32 }, () => press());
    const refused = (await press().catch((e: unknown) => e)) as ApexError;
    expect(refused).toBeInstanceOf(ApexError);
    expect(refused).toMatchObject({ code: 'device_busy', retryable: true });
    expect(refused.hint).toMatch(/saturated/);
    gate.resolve();
    await running;
    await Promise.all(waiting);
    expect(driver.callsOf('pressButton')).toHaveLength(32);
    await press(); // room again once the queue drained
  });

  it('takes the bound from DeviceHubOptions', async () => {
    const running = blockedDevice({ maxWaitingActions: 2 });
    const waiting = [press(), press()];
    expect(await codeOf(press())).toBe('device_busy');
    gate.resolve();
    await Promise.all([running, ...waiting]);
  });

  it('withdraws a queued action whose caller gives up: it never runs, and frees its place', async () => {
    const running = blockedDevice({ maxWaitingActions: 1 });
    const caller = new AbortController();
    const givenUp = press({ signal: caller.signal }).catch((e: unknown) => e);
    expect(await codeOf(press())).toBe('device_busy');
    caller.abort();
    const error = (await givenUp) as ApexError;
    expect(error.code).toBe('device_timeout');
    expect(error.message).toMatch(/gave up on "press home" on device a before it started/);
    const kept = press(); // the place is free again
    gate.resolve();
    await Promise.all([running, kept]);
    expect(driver.callsOf('pressButton')).toHaveLength(1);
  });

  it("rejects a caller that gives up with the signal's reason when that is an ApexError", async () => {
    const running = blockedDevice();
    const caller = new AbortController();
    const givenUp = press({ signal: caller.signal }).catch((e: unknown) => e);
    const reason = new ApexError('device_busy', 'The client went away.');
    caller.abort(reason);
    expect(await givenUp).toBe(reason);
    expect(await codeOf(press({ signal: AbortSignal.abort() }))).toBe('device_timeout');
    gate.resolve();
    await running;
    expect(driver.callsOf('pressButton')).toEqual([]);
  });

  it('aborts the driver call of a running action whose caller gives up, and rejects the caller at once', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    driver = new FakeDriver();
    gate = deferred();
    driver.behave('tap', (_point, signal) => untilAborted(signal as AbortSignal));
    hub.register({ id: 'a', driver });
    const caller = new AbortController();
    const running = hub
      .run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal), { signal: caller.signal })
      .catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    expect(driver.callsOf('tap')).toHaveLength(1);
    caller.abort();
    const error = (await running) as ApexError;
    expect([error.code, error.message]).toEqual(['device_timeout', expect.stringMatching(/before it finished/)]);
    expect(driver.callsOf('tap')[0].signal.aborted).toBe(true);
    await press();
    expect(driver.events).toEqual(['start:tap', 'end:tap', 'start:pressButton', 'end:pressButton']);
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
    expect(await codeOf(hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
    expect(hub.summary('a').state).toBe('offline');

    const callsBefore = driver.calls.length;
    expect(await codeOf(hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore); // failed fast, the driver was not called

    now += 250; // back-off expired: the next call tries the device again, which is still down
    expect(await codeOf(hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore + 1);

    now += 250; // the back-off doubled to 500 ms: still failing fast
    expect(await codeOf(hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
    expect(driver.calls.length).toBe(callsBefore + 1);

    driver.offline = false;
    now += 250;
    await hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal));
    expect(hub.summary('a').state).toBe('online');
  });

  it('caps the back-off and resets it after a success', async () => {
    let now = 0;
    hub = new DeviceHub({ now: () => now, backgroundProbes: false, backoff: { initialMs: 100, maxMs: 400 } });
    const driver = new FakeDriver();
    hub.register({ id: 'a', driver });
    driver.offline = true;
    const attempt = () => codeOf(hub.run('a', 'x', (d, signal) => d.tap({ x: 1, y: 1 }, signal)));
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
      expect(await codeOf(hub.run('a', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
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
    jest.useFakeTimers();
    try {
      hub = new DeviceHub({ backgroundProbes: false });
      hub.register({ id: 'a', driver: new FakeDriver(), actionTimeoutMs: 20 });
      const stuck = codeOf(hub.run('a', 'stuck', (_d, signal) => untilAborted(signal)));
      await jest.advanceTimersByTimeAsync(20);
      expect(await stuck).toBe('device_timeout');
      await codeOf(hub.run('a', 'err', async () => {
        throw new ApexError('device_error', 'x');
      }));
      expect(hub.summary('a').state).toBe('online');
    } finally {
      jest.useRealTimers();
    }
  });

  it('bounds a probe by the probe limit, aborting the ping, and counts a silent device as offline', async () => {
    jest.useFakeTimers();
    try {
      hub = new DeviceHub({ backgroundProbes: false, probeTimeoutMs: 500 });
      const driver = new FakeDriver();
      driver.behave('ping', (signal) => untilAborted(signal as AbortSignal));
      hub.register({ id: 'a', driver });
      const state = hub.probe('a');
      await jest.advanceTimersByTimeAsync(500);
      expect(await state).toBe('offline');
      expect(driver.callsOf('ping')[0].signal.aborted).toBe(true);
    } finally {
      jest.useRealTimers();
    }
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
    expect(() => hub.resolve()).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        message: expect.stringMatching(/a, b.*say which one with device\./),
        issues: [expect.objectContaining({ path: 'device' })],
      }),
    );
  });

  it('sends an omitted id to the default device when several exist; an unknown id is still device_not_found', () => {
    hub = new DeviceHub({ defaultDevice: 'b' });
    hub.register({ id: 'a', driver: new FakeDriver() });
    expect(hub.resolve()).toBe('a'); // the only one
    hub.register({ id: 'b', driver: new FakeDriver() });
    expect(hub.resolve()).toBe('b');
    expect(hub.resolve('a')).toBe('a');
    expect(() => hub.resolve('zz')).toThrow(expect.objectContaining({ code: 'device_not_found', hint: 'Use one of: a, b.' }));
  });

  it('answers device_not_found naming the default device when it is not registered now', () => {
    hub = new DeviceHub({ defaultDevice: 'gone' });
    hub.register({ id: 'a', driver: new FakeDriver() });
    hub.register({ id: 'b', driver: new FakeDriver() });
    expect(() => hub.resolve()).toThrow(
      expect.objectContaining({ code: 'device_not_found', message: 'The default device "gone" is not available now; available: a, b.' }),
    );
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
    expect(driver.callsOf('screen').length).toBe(1);
    expect(driver.callsOf('status')).toEqual([]); // the cheap read, not the full status

    driver.offline = true;
    await codeOf(hub.run('a', 'x', (d, signal) => d.tap({ x: 1, y: 1 }, signal)));
    driver.offline = false;
    driver.geometry = { width: 844, height: 390, scale: 3 };
    now += 1_000;
    await hub.run('a', 'x', (d, signal) => d.tap({ x: 1, y: 1 }, signal));
    expect(await hub.screen('a')).toEqual({ width: 844, height: 390, scale: 3 });
    await hub.close();
    expect(driver.closed).toBe(true);
    expect(await codeOf(hub.run('a', 'x', async () => 1))).toBe('device_offline');
  });
});

describe('DeviceHub with a pool (device lab) state', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('lists and refuses a device its pool calls busy or offline, and serves it once the pool allows', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    let pool: 'busy' | 'offline' | undefined = 'busy';
    const driver = new FakeDriver();
    hub.register({ id: 'lab', driver, poolState: () => pool });
    expect(hub.summary('lab').state).toBe('busy');
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_busy');
    pool = 'offline';
    expect(hub.summary('lab').state).toBe('offline');
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_offline');
    pool = undefined;
    expect(hub.summary('lab').state).toBe('online');
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('resolved');
  });

  it('tells the pool of each failure the device answered, and of nothing else', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new FakeDriver();
    const heard: string[] = [];
    hub.register({ id: 'lab', driver, onFailure: (error) => heard.push(error.code) });
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('resolved');
    driver.behave('tap', async () => {
      throw new ApexError('device_error', 'The phone refused the tap.');
    });
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_error');
    // A caller that gave up (here: before the action started) is no news about the device.
    const gaveUp = new AbortController();
    gaveUp.abort();
    expect(await codeOf(hub.run('lab', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal), { signal: gaveUp.signal }))).toBe('device_timeout');
    expect(heard).toEqual(['device_error']);
  });

  it('unregisters a device after its queued actions, closing its driver', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new FakeDriver();
    let closed = 0;
    driver.close = async () => {
      closed += 1;
    };
    hub.register({ id: 'gone', driver });
    const running = hub.run('gone', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal));
    await hub.unregister('gone');
    expect(await codeOf(running)).toBe('resolved');
    expect(closed).toBe(1);
    expect(hub.has('gone')).toBe(false);
    expect(await codeOf(hub.run('gone', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)))).toBe('device_not_found');
    await hub.unregister('gone');
  });
});

describe('DeviceHub: a device another node holds', () => {
  it('is listed with its node in the state that node reported, with the note on its report; online when none', async () => {
    const hub = new DeviceHub({ backgroundProbes: false });
    const node = { id: 'node-b', url: 'http://127.0.0.1:9' };
    let report: { state: 'offline' | 'busy'; note?: string } | undefined;
    hub.register({ id: 'remote', driver: new FakeDriver(), node: () => node, nodeReport: () => report });
    expect(hub.summary('remote')).toMatchObject({ state: 'online', node });
    report = { state: 'offline' };
    expect(hub.summary('remote')).toEqual({ id: 'remote', name: 'remote', platform: 'ios', state: 'offline', node });
    report = { state: 'busy', note: 'reported 20 s ago' };
    expect(hub.summary('remote')).toMatchObject({ state: 'busy', note: 'reported 20 s ago', node });
    await hub.close();
  });
});

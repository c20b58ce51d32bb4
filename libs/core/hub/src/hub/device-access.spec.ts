import { rejectionOf } from '@apex/errors/testing';
import type { LeaseOwner } from '../lease';
import { FakeDriver } from '../testing';
import { DeviceHub } from './device-hub';

describe('a device held by another process', () => {
  let hub: DeviceHub;
  afterEach(() => hub.close());

  it('is listed busy with its owner, calls get device_busy naming it, and it is usable once released', async () => {
    hub = new DeviceHub({ backgroundProbes: false });
    const driver = new FakeDriver();
    let holder: LeaseOwner | undefined = { pid: 4242, host: 'mac-mini', since: '2026-01-01T00:00:00.000Z' };
    hub.register({ id: 'held', driver, heldBy: () => holder });
    hub.register({ id: 'free', driver: new FakeDriver() });

    expect(hub.list()).toEqual([
      { id: 'held', name: 'held', platform: 'ios', state: 'busy', owner: holder },
      { id: 'free', name: 'free', platform: 'ios', state: 'online' },
    ]);
    const error = await rejectionOf(hub.run('held', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal)));
    expect(error.code).toBe('device_busy');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('pid 4242 on mac-mini, since 2026-01-01T00:00:00.000Z');
    expect(driver.calls).toEqual([]);
    // The other devices are unaffected.
    await hub.run('free', 'tap', (d, signal) => d.tap({ x: 1, y: 1 }, signal));

    holder = undefined;
    expect(hub.summary('held')).toEqual({ id: 'held', name: 'held', platform: 'ios', state: 'online' });
    await hub.run('held', 'tap', (d, signal) => d.tap({ x: 2, y: 2 }, signal));
    expect(driver.calls.map((c) => c.method)).toEqual(['tap']);
  });
});

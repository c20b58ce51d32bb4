import { ApexError } from '@apex/errors';
import { rejectionOf } from '@apex/errors/testing';
import { DeviceHub, DevicePreparation } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import type { OperationContext } from './define-operation';
import { runOperation } from './run-operation';

/**
 * A call on a device being prepared waits for it in the pipeline, telling the call's `onProgress` each phase;
 * the device is registered first as its pool does it (a driver that refuses, the preparation beside it), then
 * again ready under the same id before the preparation succeeds.
 */
describe('a call on a device being prepared', () => {
  let hub: DeviceHub;
  let ctx: OperationContext;
  let preparation: DevicePreparation;
  const refusing = new FakeDriver();

  beforeEach(() => {
    hub = new DeviceHub({ backgroundProbes: false });
    ctx = { hub, perception: new Perception(hub) };
    preparation = new DevicePreparation('phone-a', 'checking');
    hub.register({ id: 'phone-a', driver: refusing, poolState: () => (preparation.preparing ? 'preparing' : 'offline'), note: () => `preparing: ${preparation.phase}`, preparation });
  });
  afterEach(async () => {
    await ctx.perception.close();
    await hub.close();
  });

  async function becomeReady(): Promise<FakeDriver> {
    const driver = new FakeDriver({ screen: { width: 390, height: 844, scale: 3 } });
    await hub.unregister('phone-a');
    hub.register({ id: 'phone-a', driver });
    preparation.succeed();
    return driver;
  }

  it('waits, hears each phase in order, then runs on the ready device', async () => {
    const heard: string[] = [];
    let waiting: () => void = () => undefined;
    const firstHeard = new Promise<void>((resolve) => (waiting = resolve));
    const call = runOperation(ctx, 'list_apps', { device: 'phone-a' }, undefined, {
      onProgress: (message) => {
        heard.push(message);
        waiting();
      },
    });
    await firstHeard;
    preparation.enter('building');
    preparation.enter('starting');
    const driver = await becomeReady();
    const result = await call;
    expect(heard).toEqual(['checking', 'building', 'starting']);
    expect(result.output).toHaveProperty('apps');
    expect(driver.calls.map((c) => c.method)).toContain('listApps');
  });

  it('fails with the preparation’s own error, hint included, when it fails', async () => {
    const call = runOperation(ctx, 'list_apps', { device: 'phone-a' }, undefined, {});
    preparation.fail(new ApexError('device_error', 'Building the automation agent for Phone A failed.', { hint: 'Run `apex doctor`.' }));
    expect(await rejectionOf(call)).toMatchObject({ code: 'device_error', message: 'Building the automation agent for Phone A failed.', hint: 'Run `apex doctor`.' });
    // and so do later calls, at once
    expect(await rejectionOf(runOperation(ctx, 'list_apps', { device: 'phone-a' }))).toMatchObject({ code: 'device_error' });
  });

  it('answers at once, naming the phase, when the face does not wait (deviceWaitMs 0)', async () => {
    preparation.enter('building');
    const error = await rejectionOf(runOperation(ctx, 'list_apps', { device: 'phone-a' }, undefined, { deviceWaitMs: 0 }));
    expect(error).toMatchObject({ code: 'device_offline', retryable: true, retryAfterSeconds: 5 });
    expect(error.message).toBe('Device phone-a is still being prepared (now: building).');
  });

  it('stops waiting when the caller gives up, with the caller’s reason', async () => {
    const caller = new AbortController();
    const call = runOperation(ctx, 'list_apps', { device: 'phone-a' }, undefined, { signal: caller.signal, onProgress: () => caller.abort(new ApexError('device_timeout', 'The client stopped waiting.')) });
    expect(await rejectionOf(call)).toMatchObject({ code: 'device_timeout', message: 'The client stopped waiting.' });
  });

  it('wait_for_device waits by its own timeout, even where the face waits for nothing, and answers the summary', async () => {
    const call = runOperation(ctx, 'wait_for_device', { device: 'phone-a', timeoutMs: 60_000 }, undefined, { deviceWaitMs: 0, onProgress: () => void becomeReady() });
    expect((await call).output).toEqual({ id: 'phone-a', name: 'phone-a', platform: 'ios', state: 'online' });
    // Nothing to wait for any more: at once.
    expect((await runOperation(ctx, 'wait_for_device', { device: 'phone-a', timeoutMs: 0 })).output).toMatchObject({ state: 'online' });
  });

  it('wait_for_device with timeoutMs 0 says it is still preparing and in which phase', async () => {
    expect(await rejectionOf(runOperation(ctx, 'wait_for_device', { device: 'phone-a', timeoutMs: 0 }))).toMatchObject({
      code: 'device_offline',
      message: 'Device phone-a is still being prepared (now: checking).',
    });
  });
});

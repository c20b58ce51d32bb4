import { ApexError } from '@apex/errors';
import { DevicePreparation } from './preparation';

describe('a device preparation', () => {
  it('tells a waiter the current phase, then each new one, and resolves when it succeeds', async () => {
    const preparation = new DevicePreparation('phone', 'checking');
    const heard: string[] = [];
    const waiting = preparation.wait({ timeoutMs: 60_000, onPhase: (p) => heard.push(p) });
    preparation.enter('building');
    preparation.enter('building'); // the same phase again is no news
    preparation.enter('starting');
    preparation.succeed();
    preparation.enter('too late');
    await waiting;
    expect(heard).toEqual(['checking', 'building', 'starting']);
    expect(preparation.preparing).toBe(false);
    // Once done, a wait ends at once and hears nothing.
    const later: string[] = [];
    await preparation.wait({ timeoutMs: 0, onPhase: (p) => later.push(p) });
    expect(later).toEqual([]);
  });

  it('rejects every waiter, and every later one, with its own error when it fails', async () => {
    const preparation = new DevicePreparation('phone', 'building');
    const failure = new ApexError('device_error', 'Building failed.', { hint: 'Run `apex doctor`.' });
    const waiters = [preparation.wait({ timeoutMs: 60_000 }), preparation.wait({ timeoutMs: 60_000 })];
    preparation.fail(failure);
    for (const waiter of waiters) await expect(waiter).rejects.toBe(failure);
    await expect(preparation.wait({ timeoutMs: 60_000 })).rejects.toBe(failure);
    expect(preparation.failed).toBe(failure);
  });

  it('says it is still preparing, and in which phase, when the wait ends first; a waiter that gave up stops hearing', async () => {
    const preparation = new DevicePreparation('phone', 'building');
    // It never ends here: any bound ends first.
    await expect(preparation.wait({ timeoutMs: 1 })).rejects.toMatchObject({
      code: 'device_offline',
      retryable: true,
      retryAfterSeconds: 5,
      message: 'Device phone is still being prepared (now: building).',
    });
    const caller = new AbortController();
    const heard: string[] = [];
    const waiting = preparation.wait({ timeoutMs: 60_000, signal: caller.signal, onPhase: (p) => heard.push(p) });
    caller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'device_timeout', message: expect.stringContaining('now: building') });
    preparation.enter('starting');
    expect(heard).toEqual(['building']);
  });
});

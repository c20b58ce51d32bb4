import { eventually } from './eventually';

describe('eventually', () => {
  it('resolves with the first truthy value, after falsy ones', async () => {
    let calls = 0;
    const value = await eventually(() => (++calls >= 3 ? `ready after ${calls}` : undefined), { timeoutMs: 10_000, intervalMs: 1 });
    expect(value).toBe('ready after 3');
    expect(calls).toBe(3);
  });

  it('treats a throw as "not yet" and resolves once the check stops throwing', async () => {
    let calls = 0;
    const value = await eventually(
      async () => {
        if (++calls < 4) throw new Error(`not yet (${calls})`);
        return true;
      },
      { timeoutMs: 10_000, intervalMs: 1 },
    );
    expect(value).toBe(true);
    expect(calls).toBe(4);
  });

  it('on the deadline throws naming what it waited for and the last error', async () => {
    let calls = 0;
    const failure = eventually(
      () => {
        throw new Error(`attempt ${++calls} failed`);
      },
      { timeoutMs: 50, intervalMs: 5, what: 'the phone to come back' },
    );
    await expect(failure).rejects.toThrow(/timed out after 50 ms waiting for the phone to come back \(last error: attempt \d+ failed\)/);
    expect(calls).toBeGreaterThan(1);
  });

  it('says the check stayed false when it never threw', async () => {
    await expect(eventually(() => false, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      /waiting for the condition \(it stayed false\)/,
    );
  });

  it('forgets an earlier error once the check answers false instead', async () => {
    let calls = 0;
    const failure = eventually(
      () => {
        if (++calls === 1) throw new Error('first try broke');
        return 0;
      },
      { timeoutMs: 30, intervalMs: 5 },
    );
    await expect(failure).rejects.toThrow(/it stayed false/);
  });
});

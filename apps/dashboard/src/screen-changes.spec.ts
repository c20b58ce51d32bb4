import { FrameChanges, MAX_SETTLE_WAIT_MS, SETTLE_MS, TreeReadScheduler } from './screen-changes';

/** Timers on a hand-moved clock. */
function clock() {
  let now = 0;
  let nextId = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      setTimeout: (fn: () => void, ms: number) => {
        due.set(nextId, { at: now + ms, fn });
        return nextId++;
      },
      clearTimeout: (id: number) => void due.delete(id),
      now: () => now,
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const next = [...due.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = until;
    },
  };
}

describe('FrameChanges', () => {
  it('tells the first frame, a repeat of the same bytes, and a change', () => {
    const changes = new FrameChanges();
    expect(changes.see(Uint8Array.from([1, 2, 3]))).toBe('first');
    expect(changes.see(Uint8Array.from([1, 2, 3]))).toBe('same');
    expect(changes.see(Uint8Array.from([1, 2, 4]))).toBe('changed');
    expect(changes.see(Uint8Array.from([1, 2, 4, 0]))).toBe('changed');
    expect(changes.see(Uint8Array.from([1, 2, 4, 0]))).toBe('same');
  });
});

describe('TreeReadScheduler', () => {
  function rig(hidden = false) {
    const c = clock();
    const state = { hidden, reads: 0 };
    const scheduler = new TreeReadScheduler(() => state.reads++, () => state.hidden, c.timers);
    return { c, state, scheduler };
  }

  it('reads nothing without a change, and once per burst of changes after the screen settles', () => {
    const { c, state, scheduler } = rig();
    c.advance(60_000);
    expect(state.reads).toBe(0);
    for (let i = 0; i < 5; i++) {
      scheduler.changed();
      c.advance(100);
    }
    expect(state.reads).toBe(0);
    c.advance(SETTLE_MS);
    expect(state.reads).toBe(1);
    c.advance(60_000);
    expect(state.reads).toBe(1);
  });

  it('reads during a change that goes on, at most every MAX_SETTLE_WAIT_MS', () => {
    const { c, state, scheduler } = rig();
    for (let t = 0; t < 2 * MAX_SETTLE_WAIT_MS; t += 100) {
      scheduler.changed();
      c.advance(100);
    }
    expect(state.reads).toBe(2);
  });

  it('reads nothing while hidden, and once when shown again after a change', () => {
    const { c, state, scheduler } = rig(true);
    scheduler.changed();
    scheduler.changed();
    c.advance(10_000);
    expect(state.reads).toBe(0);
    state.hidden = false;
    scheduler.visibilityChanged();
    c.advance(SETTLE_MS);
    expect(state.reads).toBe(1);
    // Shown again without a change: nothing to read.
    state.hidden = true;
    scheduler.visibilityChanged();
    state.hidden = false;
    scheduler.visibilityChanged();
    c.advance(10_000);
    expect(state.reads).toBe(1);
  });

  it('holds a read that falls due while the page went hidden until it is shown', () => {
    const { c, state, scheduler } = rig();
    scheduler.changed();
    state.hidden = true;
    c.advance(SETTLE_MS);
    expect(state.reads).toBe(0);
    state.hidden = false;
    scheduler.visibilityChanged();
    c.advance(SETTLE_MS);
    expect(state.reads).toBe(1);
  });
});

import { pinchActions, swipeActions, tapActions, touchActions } from './actions';

const finger = (body: { actions: { actions: unknown[] }[] }, index: number) => body.actions[index]?.actions;

describe('W3C touch actions', () => {
  it('builds one touch pointer per finger, named finger1..N', () => {
    const body = touchActions([[{ kind: 'down' }], [{ kind: 'up' }], [{ kind: 'pause', durationMs: 10.4 }]]);
    expect(body.actions.map((a) => [a.type, a.id, a.parameters.pointerType])).toEqual([
      ['pointer', 'finger1', 'touch'],
      ['pointer', 'finger2', 'touch'],
      ['pointer', 'finger3', 'touch'],
    ]);
    expect(finger(body, 2)).toEqual([{ type: 'pause', duration: 10 }]);
  });

  it('swipes: down at the start, move over the duration, up', () => {
    expect(finger(swipeActions({ x: 10, y: 20 }, { x: 30, y: 40 }, 300), 0)).toEqual([
      { type: 'pointerMove', duration: 0, x: 10, y: 20, origin: 'viewport' },
      { type: 'pointerDown', button: 0 },
      { type: 'pointerMove', duration: 300, x: 30, y: 40, origin: 'viewport' },
      { type: 'pointerUp', button: 0 },
    ]);
  });

  it('holds still before moving when a hold is given', () => {
    expect(finger(swipeActions({ x: 10, y: 20 }, { x: 30, y: 40 }, 300, 800), 0)).toEqual([
      { type: 'pointerMove', duration: 0, x: 10, y: 20, origin: 'viewport' },
      { type: 'pointerDown', button: 0 },
      { type: 'pause', duration: 800 },
      { type: 'pointerMove', duration: 300, x: 30, y: 40, origin: 'viewport' },
      { type: 'pointerUp', button: 0 },
    ]);
  });

  it('taps, or presses for the hold', () => {
    expect(finger(tapActions({ x: 5, y: 6 }, 700), 0)).toEqual([
      { type: 'pointerMove', duration: 0, x: 5, y: 6, origin: 'viewport' },
      { type: 'pointerDown', button: 0 },
      { type: 'pause', duration: 700 },
      { type: 'pointerUp', button: 0 },
    ]);
  });

  it('pinches with two fingers moving apart (scale > 1) or together (scale < 1) about the center', () => {
    const apart = pinchActions({ x: 100, y: 200 }, 2, 400, 100);
    expect(apart.actions).toHaveLength(2);
    expect(finger(apart, 0)).toEqual([
      { type: 'pointerMove', duration: 0, x: 50, y: 200, origin: 'viewport' },
      { type: 'pointerDown', button: 0 },
      { type: 'pointerMove', duration: 400, x: 0, y: 200, origin: 'viewport' },
      { type: 'pointerUp', button: 0 },
    ]);
    expect(finger(apart, 1)?.[0]).toMatchObject({ x: 150 });
    expect(finger(apart, 1)?.[2]).toEqual({ type: 'pointerMove', duration: 400, x: 200, y: 200, origin: 'viewport' });
    const together = pinchActions({ x: 100, y: 200 }, 0.5, 400, 100);
    expect(finger(together, 0)?.[0]).toMatchObject({ x: 0 });
    expect(finger(together, 0)?.[2]).toMatchObject({ x: 50 });
    expect(finger(together, 1)?.[2]).toMatchObject({ x: 150 });
  });
});

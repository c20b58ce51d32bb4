/** A point in the server's units (points for iOS, pixels for Android). */
export interface XY {
  x: number;
  y: number;
}

/** One step of one finger. Durations in milliseconds. */
export type FingerStep =
  | { kind: 'move'; to: XY; durationMs: number }
  | { kind: 'down' }
  | { kind: 'up' }
  | { kind: 'pause'; durationMs: number };

const ms = (value: number) => Math.max(0, Math.round(value));

/**
 * The W3C `POST /actions` body for N touch fingers, each a list of steps run side by side (finger i is
 * `finger{i+1}`). Touch pointers: the on-device agents reject the default mouse type.
 */
export function touchActions(fingers: readonly (readonly FingerStep[])[]) {
  return {
    actions: fingers.map((steps, index) => ({
      type: 'pointer',
      id: `finger${index + 1}`,
      parameters: { pointerType: 'touch' },
      actions: steps.map((step) => {
        switch (step.kind) {
          case 'move':
            return { type: 'pointerMove', duration: ms(step.durationMs), x: step.to.x, y: step.to.y, origin: 'viewport' };
          case 'down':
            return { type: 'pointerDown', button: 0 };
          case 'up':
            return { type: 'pointerUp', button: 0 };
          case 'pause':
            return { type: 'pause', duration: ms(step.durationMs) };
        }
      }),
    })),
  };
}

/** One finger's path: down at `from`, rest `holdMs` (a long press that then drags), move to `to`, up. */
export function strokeSteps(from: XY, to: XY, durationMs: number, holdMs = 0): FingerStep[] {
  return [
    { kind: 'move', to: from, durationMs: 0 },
    { kind: 'down' },
    ...(holdMs > 0 ? [{ kind: 'pause', durationMs: holdMs } as const] : []),
    { kind: 'move', to, durationMs },
    { kind: 'up' },
  ];
}

/** A swipe: one finger from `from` to `to` over `durationMs`, optionally held still first (hold-then-move). */
export function swipeActions(from: XY, to: XY, durationMs: number, holdMs = 0) {
  return touchActions([strokeSteps(from, to, durationMs, holdMs)]);
}

/** A tap, or a press held `holdMs` when given. */
export function tapActions(at: XY, holdMs = 0) {
  return touchActions([[{ kind: 'move', to: at, durationMs: 0 }, { kind: 'down' }, { kind: 'pause', durationMs: holdMs }, { kind: 'up' }]]);
}

/**
 * Two fingers on a horizontal line through `center`, moving apart (`scale` > 1, zoom in) or together
 * (`scale` < 1) over `durationMs`, so that their distance changes by `scale`. `spread` is the larger of the
 * two distances of each finger from the centre (start when pinching in, end when spreading out).
 */
export function pinchActions(center: XY, scale: number, durationMs: number, spread = 100) {
  const at = (dx: number): XY => ({ x: Math.round((center.x + dx) * 100) / 100, y: center.y });
  const [start, end] = scale >= 1 ? [spread / scale, spread] : [spread, spread * scale];
  return touchActions([strokeSteps(at(-start), at(-end), durationMs), strokeSteps(at(start), at(end), durationMs)]);
}

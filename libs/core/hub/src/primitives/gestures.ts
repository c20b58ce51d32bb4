import type { Point, ScreenGeometry, SwipeGesture } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { PointSchema, SwipeBetweenPointsSchema, SwipeDirectionSchema, type SwipeDirection } from './schemas';
import { assertOnScreen } from './screen-bounds';
import { parseInput } from './validate';

export type SwipeArgs =
  | { from: Point; to: Point; durationMs?: number }
  | { direction: SwipeDirection; start?: Point; distance?: number; durationMs?: number };

const DEFAULT_SWIPE_MS = 300;

export async function tap(hub: DeviceHub, deviceId: string | undefined, point: Point): Promise<void> {
  const parsed = parseInput(PointSchema, point, 'tap point');
  const id = hub.resolve(deviceId);
  await assertOnScreen(hub, id, [{ point: parsed, path: '' }]);
  await hub.run(id, 'tap', (driver, signal) => driver.tap({ x: parsed.x, y: parsed.y }, signal));
}

/** Keeps a computed point inside the screen (half a point from the edge). */
function clampToScreen(point: Point, screen: ScreenGeometry): Point {
  const clamp = (value: number, size: number) => Math.min(Math.max(value, 0.5), size - 0.5);
  return { x: clamp(point.x, screen.width), y: clamp(point.y, screen.height) };
}

const DIRECTION_VECTORS: Record<SwipeDirection, Point> = {
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};

/**
 * A swipe between two points, or in a direction. `direction` is the way the finger moves: `up` moves the
 * finger up (content scrolls to reveal what is below). Default start: screen centre; default distance:
 * half the screen along the axis; the end point is clamped inside the screen.
 */
export async function swipe(hub: DeviceHub, deviceId: string | undefined, args: SwipeArgs): Promise<void> {
  const isDirection = typeof args === 'object' && args !== null && 'direction' in args;
  const id = hub.resolve(deviceId);
  let gesture: SwipeGesture;
  if (isDirection) {
    const parsed = parseInput(SwipeDirectionSchema, args, 'swipe arguments');
    const screen = parsed.start
      ? await assertOnScreen(hub, id, [{ point: parsed.start, path: 'start' }])
      : await hub.screen(id);
    const from = parsed.start ?? { x: screen.width / 2, y: screen.height / 2 };
    const vector = DIRECTION_VECTORS[parsed.direction];
    const distance = parsed.distance ?? (vector.x !== 0 ? screen.width : screen.height) / 2;
    const to = clampToScreen({ x: from.x + vector.x * distance, y: from.y + vector.y * distance }, screen);
    gesture = { from, to, durationMs: parsed.durationMs ?? DEFAULT_SWIPE_MS };
  } else {
    const parsed = parseInput(SwipeBetweenPointsSchema, args, 'swipe arguments');
    await assertOnScreen(hub, id, [
      { point: parsed.from, path: 'from' },
      { point: parsed.to, path: 'to' },
    ]);
    gesture = { from: parsed.from, to: parsed.to, durationMs: parsed.durationMs ?? DEFAULT_SWIPE_MS };
  }
  await hub.run(id, 'swipe', (driver, signal) => driver.swipe(gesture, signal));
}

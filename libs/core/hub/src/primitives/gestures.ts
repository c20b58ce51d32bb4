import type { Point, ScreenGeometry, SwipeGesture } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { runWith } from './abilities';
import { assertOnScreen } from './screen-bounds';

/** The way the finger moves: `up` moves the finger up, so the content scrolls to show what is further down. */
export const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number];

/** `holdMs`: press and hold at the start this long before moving (drag and drop, reordering). */
export type SwipeArgs =
  | { from: Point; to: Point; durationMs?: number; holdMs?: number }
  | { direction: SwipeDirection; start?: Point; distance?: number; durationMs?: number; holdMs?: number };

const DEFAULT_SWIPE_MS = 300;
export const DEFAULT_LONG_PRESS_MS = 800;
export const DEFAULT_PINCH_MS = 500;

export async function tap(hub: DeviceHub, deviceId: string, point: Point): Promise<void> {
  await assertOnScreen(hub, deviceId, [{ point, path: '' }]);
  await hub.run(deviceId, 'tap', (driver, signal) => driver.tap({ x: point.x, y: point.y }, signal));
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
export async function swipe(hub: DeviceHub, deviceId: string, args: SwipeArgs): Promise<void> {
  let gesture: SwipeGesture;
  if ('direction' in args) {
    const screen = args.start
      ? await assertOnScreen(hub, deviceId, [{ point: args.start, path: 'start' }])
      : await hub.screen(deviceId);
    const from = args.start ?? { x: screen.width / 2, y: screen.height / 2 };
    const vector = DIRECTION_VECTORS[args.direction];
    const distance = args.distance ?? (vector.x !== 0 ? screen.width : screen.height) / 2;
    const to = clampToScreen({ x: from.x + vector.x * distance, y: from.y + vector.y * distance }, screen);
    gesture = { from, to, durationMs: args.durationMs ?? DEFAULT_SWIPE_MS };
  } else {
    await assertOnScreen(hub, deviceId, [
      { point: args.from, path: 'from' },
      { point: args.to, path: 'to' },
    ]);
    gesture = { from: args.from, to: args.to, durationMs: args.durationMs ?? DEFAULT_SWIPE_MS };
  }
  if (args.holdMs) gesture.holdMs = args.holdMs;
  await hub.run(deviceId, 'swipe', (driver, signal) => driver.swipe(gesture, signal));
}

/** Touches one point and holds it (context menus, previews); default 800 ms. */
export async function longPress(hub: DeviceHub, deviceId: string, point: Point, durationMs = DEFAULT_LONG_PRESS_MS): Promise<void> {
  await assertOnScreen(hub, deviceId, [{ point, path: '' }]);
  await runWith(hub, deviceId, ['longPress'], 'long press', (driver, signal) =>
    driver.longPress({ point: { x: point.x, y: point.y }, durationMs }, signal),
  );
}

export async function doubleTap(hub: DeviceHub, deviceId: string, point: Point): Promise<void> {
  await assertOnScreen(hub, deviceId, [{ point, path: '' }]);
  await runWith(hub, deviceId, ['doubleTap'], 'double tap', (driver, signal) => driver.doubleTap({ x: point.x, y: point.y }, signal));
}

/** Two fingers around `center` (default: the screen centre); `scale` > 1 zooms in. Returns the centre used. */
export async function pinch(
  hub: DeviceHub,
  deviceId: string,
  args: { scale: number; center?: Point; durationMs?: number },
): Promise<Point> {
  const screen = args.center
    ? await assertOnScreen(hub, deviceId, [{ point: args.center, path: 'center' }])
    : await hub.screen(deviceId);
  const center = args.center ? { x: args.center.x, y: args.center.y } : { x: screen.width / 2, y: screen.height / 2 };
  const durationMs = args.durationMs ?? DEFAULT_PINCH_MS;
  await runWith(hub, deviceId, ['pinch'], 'pinch', (driver, signal) => driver.pinch({ center, scale: args.scale, durationMs }, signal));
  return center;
}

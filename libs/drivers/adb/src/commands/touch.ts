import type { LongPressGesture, Point, SwipeGesture } from '@apex/port';
import { okText, shell, shellLine, type AdbContext } from '../adb-context';
import { commandLine } from '../shell-words';
import { knownScale } from './screen';

/*
 * Touches with `input` (InputShellCommand): coordinates in pixels of the current rotation, durations in ms.
 * A long press is a swipe that stays on one point; a drag with a hold is `draganddrop` (Android 12+: it holds
 * for the long-press time, then moves).
 */

const px = (value: number, scale: number): string => String(Math.round(value * scale));

export async function tap(ctx: AdbContext, point: Point, signal: AbortSignal): Promise<void> {
  const scale = await knownScale(ctx, signal);
  okText(await shell(ctx, ['input', 'tap', px(point.x, scale), px(point.y, scale)], signal));
}

export async function swipe(ctx: AdbContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  const scale = await knownScale(ctx, signal);
  const coordinates = [px(gesture.from.x, scale), px(gesture.from.y, scale), px(gesture.to.x, scale), px(gesture.to.y, scale)];
  const hold = gesture.holdMs ?? 0;
  const duration = String(Math.max(1, Math.round(gesture.durationMs + hold)));
  if (hold > 0) {
    const dragged = await shell(ctx, ['input', 'draganddrop', ...coordinates, duration], signal);
    // Before Android 12 `input` has no draganddrop: a slow swipe over the whole time is the nearest gesture.
    if (!/Unknown command: draganddrop/.test(dragged.stderr.toString('utf8'))) {
      okText(dragged);
      return;
    }
  }
  okText(await shell(ctx, ['input', 'swipe', ...coordinates, duration], signal));
}

export async function longPress(ctx: AdbContext, gesture: LongPressGesture, signal: AbortSignal): Promise<void> {
  const scale = await knownScale(ctx, signal);
  const x = px(gesture.point.x, scale);
  const y = px(gesture.point.y, scale);
  okText(await shell(ctx, ['input', 'swipe', x, y, x, y, String(Math.max(1, Math.round(gesture.durationMs)))], signal));
}

/** Two `input tap`s in one shell run (each starts its own input process, so the gap is the device's). */
export async function doubleTap(ctx: AdbContext, point: Point, signal: AbortSignal): Promise<void> {
  const scale = await knownScale(ctx, signal);
  const once = commandLine(['input', 'tap', px(point.x, scale), px(point.y, scale)]);
  okText(await shellLine(ctx, `${once} && ${once}`, signal));
}

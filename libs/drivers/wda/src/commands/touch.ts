import type { LongPressGesture, PinchGesture, Point } from '@apex/port';
import { pinchActions } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** `/wda/touchAndHold`: the finger rests on the point for the duration (seconds on the wire). */
export async function longPress(ctx: WdaContext, gesture: LongPressGesture, signal: AbortSignal): Promise<void> {
  const { point, durationMs } = gesture;
  await ctx.session.send({ method: 'POST', path: '/wda/touchAndHold', body: { x: point.x, y: point.y, duration: durationMs / 1000 }, signal });
}

export async function doubleTap(ctx: WdaContext, point: Point, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/wda/doubleTap', body: { x: point.x, y: point.y }, signal });
}

/**
 * Two-finger W3C actions around the gesture's centre. Not `/wda/pinch {scale, velocity}`: that one pinches
 * around the centre of the app only (WDA-PROTOCOL.md §7), and the port's pinch has a centre of its own.
 */
export async function pinch(ctx: WdaContext, gesture: PinchGesture, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/actions', body: pinchActions(gesture.center, gesture.scale, gesture.durationMs), signal });
}

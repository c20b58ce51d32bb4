import type { Point, SwipeGesture } from '@apex/port';
import { swipeActions, WebDriverProtocolError } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Taps a point (points, relative to the active app's origin). */
export async function tap(ctx: WdaContext, point: Point, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/wda/tap', body: { x: point.x, y: point.y }, signal });
}

/** The drag route; its `duration` (seconds) is the press before the drag, not the move time. */
async function drag(ctx: WdaContext, gesture: SwipeGesture, pressSeconds: number, signal: AbortSignal): Promise<void> {
  const { from, to } = gesture;
  await ctx.session.send({
    method: 'POST',
    path: '/wda/dragfromtoforduration',
    body: { fromX: from.x, fromY: from.y, toX: to.x, toY: to.y, duration: pressSeconds },
    signal,
  });
}

/**
 * A swipe as W3C touch actions: the finger goes down at `from`, moves to `to` over `durationMs`, lifts. A
 * swipe with a hold (drag and drop) is the drag route, whose press is the hold and whose move time is the
 * agent's own. A server without `/actions` (`unknown command`, nothing happened) gets the drag route too.
 */
export async function swipe(ctx: WdaContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  const holdMs = gesture.holdMs ?? 0;
  if (holdMs > 0) return drag(ctx, gesture, holdMs / 1000, signal);
  try {
    await ctx.session.send({ method: 'POST', path: '/actions', body: swipeActions(gesture.from, gesture.to, gesture.durationMs), signal });
  } catch (error) {
    if (!(error instanceof WebDriverProtocolError && error.error === 'unknown command')) throw error;
    await drag(ctx, gesture, gesture.durationMs / 1000, signal);
  }
}

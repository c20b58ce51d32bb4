import type { Point, SwipeGesture } from '@apex/port';
import { swipeActions, WebDriverProtocolError } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Taps a point (points, relative to the active app's origin). */
export async function tap(ctx: WdaContext, point: Point, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/wda/tap', body: { x: point.x, y: point.y }, signal });
}

/**
 * A swipe as W3C touch actions: the finger goes down at `from`, moves to `to` over `durationMs`, lifts.
 * A server without `/actions` (`unknown command`, nothing happened) gets the drag route instead, whose
 * duration is in seconds (and is a press-then-drag on a real device).
 */
export async function swipe(ctx: WdaContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  try {
    await ctx.session.send({ method: 'POST', path: '/actions', body: swipeActions(gesture.from, gesture.to, gesture.durationMs), signal });
  } catch (error) {
    if (!(error instanceof WebDriverProtocolError && error.error === 'unknown command')) throw error;
    await ctx.session.send({
      method: 'POST',
      path: '/wda/dragfromtoforduration',
      body: {
        fromX: gesture.from.x,
        fromY: gesture.from.y,
        toX: gesture.to.x,
        toY: gesture.to.y,
        duration: gesture.durationMs / 1000,
      },
      signal,
    });
  }
}

import type { Point, SwipeGesture } from '@apex/port';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

/** Taps a point (points, relative to the active app's origin). */
export async function tap(ctx: WdaContext, point: Point, signal: AbortSignal): Promise<void> {
  await ctx.session.send({ method: 'POST', path: '/wda/tap', body: { x: point.x, y: point.y }, signal });
}

/** A W3C touch pointer (WDA rejects the default mouse pointer type). Durations in milliseconds. */
function touchSwipeActions(gesture: SwipeGesture) {
  return {
    actions: [
      {
        type: 'pointer',
        id: 'finger1',
        parameters: { pointerType: 'touch' },
        actions: [
          { type: 'pointerMove', duration: 0, x: gesture.from.x, y: gesture.from.y, origin: 'viewport' },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerMove', duration: gesture.durationMs, x: gesture.to.x, y: gesture.to.y, origin: 'viewport' },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ],
  };
}

/**
 * A swipe as W3C touch actions: the finger goes down at `from`, moves to `to` over `durationMs`, lifts.
 * A server without `/actions` (`unknown command`, nothing happened) gets the drag route instead, whose
 * duration is in seconds (and is a press-then-drag on a real device).
 */
export async function swipe(ctx: WdaContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  try {
    await ctx.session.send({ method: 'POST', path: '/actions', body: touchSwipeActions(gesture), signal });
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

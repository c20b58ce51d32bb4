import type { Point, SwipeGesture } from '@apex/port';
import { WebDriverProtocolError } from '@apex/webdriver-http';
import { performSwipe } from '../common';
import { mobile, type AppiumContext } from '../context';

/** `mobile: tap` → the agent's `/wda/tap` (points, relative to the active app), the direct driver's route too. */
export async function tap(ctx: AppiumContext, point: Point, signal: AbortSignal): Promise<void> {
  await mobile(ctx, 'tap', { x: point.x, y: point.y }, { signal });
}

/**
 * W3C actions with a touch pointer (`POST /actions`, forwarded to the agent's `/actions`). A server or agent
 * without them (`unknown command`/`unknown method`: nothing happened) gets `mobile: dragFromToForDuration`,
 * whose duration is in seconds between 0.5 and 60 (a press-then-drag on a real device).
 */
export async function swipe(ctx: AppiumContext, gesture: SwipeGesture, signal: AbortSignal): Promise<void> {
  try {
    await performSwipe(ctx, gesture, signal);
  } catch (error) {
    if (!(error instanceof WebDriverProtocolError && (error.error === 'unknown command' || error.error === 'unknown method'))) throw error;
    await mobile(ctx, 'dragFromToForDuration', {
      fromX: gesture.from.x,
      fromY: gesture.from.y,
      toX: gesture.to.x,
      toY: gesture.to.y,
      duration: Math.min(60, Math.max(0.5, gesture.durationMs / 1000)),
    }, { signal });
  }
}

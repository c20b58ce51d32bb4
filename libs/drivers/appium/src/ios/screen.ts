import type { RawScreenshot, ScreenGeometry, UiNode } from '@apex/port';
import { normalizeXmlSource } from '@apex/ios-source';
import { WebDriverMalformedReply } from '@apex/webdriver-http';
import { readScreenshotPng, readSource, readWindowSize } from '../common';
import { asRecord, mobile, optional, positiveNumber, type AppiumContext } from '../context';

/** Pixels per point: `mobile: deviceScreenInfo` (the agent's `/wda/screen`); read once per session. */
async function scaleOf(ctx: AppiumContext, signal: AbortSignal): Promise<{ scale: number; screenSize?: { width: number; height: number } }> {
  const info = asRecord(await mobile(ctx, 'deviceScreenInfo', undefined, { idempotent: true, signal }));
  const scale = positiveNumber(info?.scale);
  if (scale === undefined) throw new WebDriverMalformedReply(200, 'mobile: deviceScreenInfo', JSON.stringify(info).slice(0, 200));
  ctx.scale = scale;
  const size = asRecord(info?.screenSize);
  const width = positiveNumber(size?.width);
  const height = positiveNumber(size?.height);
  return { scale, screenSize: width !== undefined && height !== undefined ? { width, height } : undefined };
}

/**
 * The screen in points and its scale. The size comes from `GET /window/rect` (follows rotation); the server
 * memoizes `deviceScreenInfo` per session, so its size is only the fallback. The scale is read once per
 * session, so once it is known this is one round trip.
 */
export async function screenGeometry(ctx: AppiumContext, signal: AbortSignal): Promise<ScreenGeometry> {
  const known = ctx.scale;
  const [window, info] = await Promise.all([
    optional(() => readWindowSize(ctx, signal)),
    known === undefined ? scaleOf(ctx, signal) : undefined,
  ]);
  let size = window ?? info?.screenSize;
  let scale = known ?? info?.scale;
  if (!size || scale === undefined) {
    const fresh = await scaleOf(ctx, signal);
    size ??= fresh.screenSize;
    scale = fresh.scale;
  }
  if (!size) throw new WebDriverMalformedReply(200, 'GET /window/rect', 'no screen size');
  return { ...size, scale };
}

/** The full-resolution PNG (pixels = points × scale). */
export async function screenshot(ctx: AppiumContext, signal: AbortSignal): Promise<RawScreenshot> {
  const shot = await readScreenshotPng(ctx, signal);
  const scale = ctx.scale ?? (await scaleOf(ctx, signal)).scale;
  return { ...shot, scale };
}

/** The page source is the agent's XML, passed through unchanged: the same normalizer as the direct driver. */
export async function uiTree(ctx: AppiumContext, signal: AbortSignal): Promise<UiNode> {
  return normalizeXmlSource(await readSource(ctx, signal), ctx.deviceId);
}

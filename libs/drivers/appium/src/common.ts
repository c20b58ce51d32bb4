import type { Point, SwipeGesture } from '@apex/port';
import { swipeActions, WebDriverMalformedReply } from '@apex/webdriver-http';
import { command, type AppiumContext } from './context';

/** A swipe as W3C touch actions in the server's units (`factor` = server units per Apex unit). */
export async function performSwipe(ctx: AppiumContext, gesture: SwipeGesture, signal: AbortSignal, factor = 1): Promise<void> {
  const scaled = (p: Point): Point => ({ x: Math.round(p.x * factor * 100) / 100, y: Math.round(p.y * factor * 100) / 100 });
  await command(ctx, { method: 'POST', path: '/actions', body: swipeActions(scaled(gesture.from), scaled(gesture.to), gesture.durationMs, gesture.holdMs), signal });
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or undefined when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('ascii', 12, 16) !== 'IHDR') return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** `GET /screenshot`: a base64 PNG in device pixels. */
export async function readScreenshotPng(ctx: AppiumContext, signal: AbortSignal): Promise<{ png: Buffer; width: number; height: number }> {
  const value = await command(ctx, { method: 'GET', path: '/screenshot', idempotent: true, signal });
  const png = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  const size = pngSize(png);
  if (!size) throw new WebDriverMalformedReply(200, 'GET /screenshot', 'the value is not a base64 PNG');
  return { png, ...size };
}

/** `GET /source`: the page source as a string. */
export async function readSource(ctx: AppiumContext, signal: AbortSignal): Promise<string> {
  const value = await command(ctx, { method: 'GET', path: '/source', idempotent: true, signal });
  if (typeof value !== 'string') throw new WebDriverMalformedReply(200, 'GET /source', 'the value is not a string');
  return value;
}

/** `GET /window/rect`: the current window in the server's units (orientation-aware). */
export async function readWindowSize(ctx: AppiumContext, signal: AbortSignal): Promise<{ width: number; height: number } | undefined> {
  const value = (await command(ctx, { method: 'GET', path: '/window/rect', idempotent: true, signal })) as {
    width?: unknown;
    height?: unknown;
  } | null;
  const width = typeof value?.width === 'number' && value.width > 0 ? value.width : undefined;
  const height = typeof value?.height === 'number' && value.height > 0 ? value.height : undefined;
  return width !== undefined && height !== undefined ? { width, height } : undefined;
}

export function orientationOf(value: unknown): 'portrait' | 'landscape' | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  return value.toUpperCase().startsWith('LANDSCAPE') ? 'landscape' : 'portrait';
}

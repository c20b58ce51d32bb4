import type { RawScreenshot, ScreenGeometry } from '@apex/port';
import { WebDriverMalformedReply } from '@apex/webdriver-http';
import type { WdaContext } from '../wda-context';

interface WdaScreenInfo {
  screenSize?: { width?: unknown; height?: unknown };
  scale?: unknown;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The screen in points and its scale from one `GET /wda/screen` (size for the current orientation, and
 * scale; no session needed). `/window/size` is asked only when an older agent leaves the size out. The
 * scale is kept for screenshots; the geometry itself is cached by the hub, which knows when to read it again.
 */
export async function screenGeometry(ctx: WdaContext, signal: AbortSignal): Promise<ScreenGeometry> {
  const info = (await ctx.client.send({ method: 'GET', path: '/wda/screen', idempotent: true, signal })).value as WdaScreenInfo | null;
  const scale = positive(info?.scale);
  if (scale === undefined) throw new WebDriverMalformedReply(200, 'GET /wda/screen', JSON.stringify(info).slice(0, 200));
  ctx.scale = scale;
  let width = positive(info?.screenSize?.width);
  let height = positive(info?.screenSize?.height);
  if (width === undefined || height === undefined) {
    const size = (await ctx.client.send({ method: 'GET', path: '/window/size', idempotent: true, signal })).value as {
      width?: unknown;
      height?: unknown;
    } | null;
    width = positive(size?.width);
    height = positive(size?.height);
  }
  if (width === undefined || height === undefined) {
    throw new WebDriverMalformedReply(200, 'GET /wda/screen', JSON.stringify(info).slice(0, 200));
  }
  return { width, height, scale };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, or undefined when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('ascii', 12, 16) !== 'IHDR') return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The full-resolution PNG the device captures (always PNG, in pixels = points × scale). */
export async function screenshot(ctx: WdaContext, signal: AbortSignal): Promise<RawScreenshot> {
  const reply = await ctx.client.send({ method: 'GET', path: '/screenshot', idempotent: true, signal });
  const png = typeof reply.value === 'string' ? Buffer.from(reply.value, 'base64') : Buffer.alloc(0);
  const size = pngSize(png);
  if (!size) throw new WebDriverMalformedReply(200, 'GET /screenshot', 'the value is not a base64 PNG');
  const scale = ctx.scale ?? (await screenGeometry(ctx, signal)).scale;
  return { png, width: size.width, height: size.height, scale };
}

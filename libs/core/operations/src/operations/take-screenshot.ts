import { z } from 'zod';
import { takeScreenshot } from '@apex/hub';
import { defineOperation, withImage } from '../define-operation';
import { deviceField } from '../schemas';

/** Raw bytes cap: base64 makes it 4/3 larger, which keeps an MCP result under 1 MB. */
export const MAX_SCREENSHOT_BYTES = 700 * 1024;
const DEFAULT_JPEG_QUALITY = 80;
const MIN_JPEG_QUALITY = 40;
const MAX_FIT_ATTEMPTS = 8;

type Format = 'png' | 'jpeg';
interface Attempt {
  format: Format;
  scale: 'points' | 'native';
  maxWidth?: number;
  quality?: number;
}

/** The next, smaller attempt: lower JPEG quality first, then a narrower image. */
function smaller(attempt: Attempt, width: number): Attempt {
  if (attempt.format === 'jpeg' && (attempt.quality ?? DEFAULT_JPEG_QUALITY) > MIN_JPEG_QUALITY) {
    return { ...attempt, quality: (attempt.quality ?? DEFAULT_JPEG_QUALITY) - 20 };
  }
  return { ...attempt, maxWidth: Math.max(64, Math.floor(width * 0.75)) };
}

/** How image pixels map to tap points, in words a model can use. */
export function describePixelMapping(pixelsPerPoint: number): string {
  if (Math.abs(pixelsPerPoint - 1) < 1e-6) return '1 image pixel = 1 point: tap the pixel coordinates you see';
  const ratio = Number(pixelsPerPoint.toFixed(3));
  return `1 point = ${ratio} image pixels: divide image coordinates by ${ratio} to get tap points`;
}

export const takeScreenshotOperation = defineOperation({
  name: 'take_screenshot',
  title: 'Take screenshot',
  description:
    'Captures the screen as an image. By default a JPEG scaled so 1 image pixel = 1 point, so pixel coordinates are tap coordinates. Prefer describe_screen to find what to tap; use this to see layout or images. Always under 1 MB.',
  input: z.strictObject({
    device: deviceField,
    format: z.enum(['jpeg', 'png']).default('jpeg').describe('jpeg (default, small) or png (lossless)'),
    scale: z
      .enum(['points', 'native'])
      .default('points')
      .describe('points (default): 1 pixel = 1 point; native: the device pixels'),
    maxWidth: z.number().int().min(64).max(4096).optional().describe('Downscale to at most this width in pixels'),
  }),
  output: z.object({
    format: z.enum(['jpeg', 'png']),
    mimeType: z.enum(['image/jpeg', 'image/png']),
    width: z.number().describe('pixels'),
    height: z.number().describe('pixels'),
    pixelsPerPoint: z.number().describe('image pixels per point'),
    bytes: z.number(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, format, scale, maxWidth }) => {
    let attempt: Attempt = { format, scale, maxWidth, quality: format === 'jpeg' ? DEFAULT_JPEG_QUALITY : undefined };
    let shot = await takeScreenshot(ctx.hub, device, attempt);
    for (let i = 0; i < MAX_FIT_ATTEMPTS && shot.data.length > MAX_SCREENSHOT_BYTES; i++) {
      attempt = smaller(attempt, shot.width);
      shot = await takeScreenshot(ctx.hub, device, attempt);
    }
    const mimeType = shot.mimeType as 'image/png' | 'image/jpeg';
    const structured = {
      format: mimeType === 'image/png' ? ('png' as const) : ('jpeg' as const),
      mimeType,
      width: shot.width,
      height: shot.height,
      pixelsPerPoint: shot.pixelsPerPoint,
      bytes: shot.data.length,
    };
    return withImage(structured, { data: shot.data, mimeType });
  },
  summarize: (s) => `Screenshot ${s.width}×${s.height} ${s.format.toUpperCase()} (${Math.round(s.bytes / 1024)} KB); ${describePixelMapping(s.pixelsPerPoint)}.`,
});

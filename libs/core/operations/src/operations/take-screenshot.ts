import { z } from 'zod';
import { captureScreen } from '@apex/hub';
import { defineOperation, withImage } from '../define-operation';
import { MAX_REQUESTED_SCREENSHOT_WIDTH, MIN_SCREENSHOT_WIDTH } from '../limits';
import { deviceField } from '../schemas';
import { describePixelMapping, SCREENSHOT_DEFAULTS, SCREENSHOT_FORMATS, SCREENSHOT_RESOLUTIONS } from '../screenshot-encoding';
import { screenshotEncoderOf } from '../screenshot-reuse';

export const takeScreenshotOperation = defineOperation({
  name: 'take_screenshot',
  title: 'Take screenshot',
  description:
    'The screen as an image (< 1 MB): by default a JPEG with 1 pixel = 1 point, so pixels are tap coordinates.',
  input: z.strictObject({
    device: deviceField,
    format: z.enum(SCREENSHOT_FORMATS).default(SCREENSHOT_DEFAULTS.format),
    resolution: z
      .enum(SCREENSHOT_RESOLUTIONS)
      .default(SCREENSHOT_DEFAULTS.resolution)
      .describe('points: 1 pixel = 1 point; native: device pixels'),
    maxWidth: z
      .number()
      .int()
      .min(MIN_SCREENSHOT_WIDTH)
      .max(MAX_REQUESTED_SCREENSHOT_WIDTH)
      .optional()
      .describe('pixels'),
  }),
  output: z.object({
    format: z.enum(SCREENSHOT_FORMATS),
    mimeType: z.enum(['image/jpeg', 'image/png']),
    width: z.number().describe('pixels'),
    height: z.number().describe('pixels'),
    pixelsPerPoint: z.number().describe('image pixels per point'),
    bytes: z.number(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, format, resolution, maxWidth }) => {
    // One capture; fitting the size budget re-encodes it, it never asks the device again. An unchanged screen
    // reuses the last encoding.
    const shot = await screenshotEncoderOf(ctx.hub).encode(device, await captureScreen(ctx.hub, device), { format, resolution, maxWidth });
    const { data, mimeType, width, height, pixelsPerPoint } = shot;
    return withImage({ format: shot.format, mimeType, width, height, pixelsPerPoint, bytes: data.length }, { data, mimeType });
  },
  summarize: (s) => `Screenshot ${s.width}×${s.height} ${s.format.toUpperCase()} (${Math.round(s.bytes / 1024)} KB); ${describePixelMapping(s.pixelsPerPoint)}.`,
});

import { z } from 'zod';
import { captureScreen } from '@apex/hub';
import { drawMarks } from '@apex/perception';
import { defineOperation, withImage } from '../define-operation';
import { MAX_REQUESTED_SCREENSHOT_WIDTH, MIN_SCREENSHOT_WIDTH } from '../limits';
import { deviceField, pointOut } from '../schemas';
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
    marks: z.boolean().optional().describe('boxes numbered by ref'),
  }),
  output: z.object({
    format: z.enum(SCREENSHOT_FORMATS),
    mimeType: z.enum(['image/jpeg', 'image/png']),
    width: z.number().describe('pixels'),
    height: z.number().describe('pixels'),
    pixelsPerPoint: z.number().describe('image pixels per point'),
    bytes: z.number(),
    marks: z.array(z.object({ ref: z.string(), role: z.string(), label: z.string().optional(), center: pointOut })).optional(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'observe',
  handler: async (ctx, { device, format, resolution, maxWidth, marks }) => {
    // One capture; fitting the size budget re-encodes it, it never asks the device again. An unchanged screen
    // reuses the last encoding. Marks come from the tree read beside it: describe_screen's elements and refs.
    const [capture, described] = await Promise.all([
      captureScreen(ctx.hub, device),
      marks ? ctx.perception.describeScreen(device, { includeOcrText: false }) : undefined,
    ]);
    const shot = await screenshotEncoderOf(ctx.hub).encode(device, capture, { format, resolution, maxWidth });
    const { mimeType, width, height, pixelsPerPoint } = shot;
    const out = { format: shot.format, mimeType, width, height, pixelsPerPoint };
    if (!described) return withImage({ ...out, bytes: shot.data.length }, { data: shot.data, mimeType });
    const boxed = described.elements.filter((e) => e.bounds !== undefined);
    const data = await drawMarks(shot.data, shot.format, boxed.map((e) => ({ ref: e.ref, bounds: e.bounds as NonNullable<typeof e.bounds> })), pixelsPerPoint);
    const list = boxed.map((e) => (e.label ? { ref: e.ref, role: e.role, label: e.label, center: e.center } : { ref: e.ref, role: e.role, center: e.center }));
    return withImage({ ...out, bytes: data.length, marks: list }, { data, mimeType });
  },
  summarize: (s) =>
    `Screenshot ${s.width}×${s.height} ${s.format.toUpperCase()} (${Math.round(s.bytes / 1024)} KB); ${describePixelMapping(s.pixelsPerPoint)}.${
      s.marks ? `\nMarks (the number on each box is its ref):\n${s.marks.map((m) => `${m.ref} ${m.role}${m.label ? ` ${JSON.stringify(m.label)}` : ''} @${Math.round(m.center.x)},${Math.round(m.center.y)}`).join('\n')}` : ''
    }`,
});

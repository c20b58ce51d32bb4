import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { MAX_DESCRIBED_ELEMENTS } from '../limits';
import { deviceField, pointOut, rectOut } from '../schemas';

export const describeScreenOperation = defineOperation({
  name: 'describe_screen',
  title: 'Describe screen',
  description:
    'A compact description of the current screen for deciding what to do: foreground app, alert, keyboard, the actionable elements with their tap `center` in points, and text read from the pixels. Use this first, then tap the centers it reports.',
  input: z.strictObject({
    device: deviceField,
    maxElements: z.number().int().min(1).max(MAX_DESCRIBED_ELEMENTS).optional().describe('Most elements to list (default 60)'),
    includeOcrText: z.boolean().optional().describe('Also read text from the pixels (default true; false is faster)'),
  }),
  output: z.object({
    app: z.object({ appId: z.string(), name: z.string().optional() }).optional(),
    screen: z.object({ width: z.number(), height: z.number(), scale: z.number() }),
    orientation: z.enum(['portrait', 'landscape']),
    alert: z.object({ title: z.string().optional(), message: z.string().optional(), buttons: z.array(z.string()) }).optional(),
    keyboardVisible: z.boolean(),
    elements: z.array(
      z.object({
        ref: z.string(),
        nodeId: z.string(),
        role: z.string(),
        label: z.string().optional(),
        value: z.string().optional(),
        icon: z.string().optional().describe('glyph an unlabeled icon button shows'),
        center: pointOut,
        disabled: z.boolean().optional(),
        selected: z.boolean().optional(),
        focused: z.boolean().optional(),
      }),
    ),
    omittedElements: z.number(),
    staticText: z.array(z.object({ text: z.string(), center: pointOut })).optional().describe('titles, headers, captions'),
    ocrText: z.array(z.object({ text: z.string(), center: pointOut, bounds: rectOut, confidence: z.number() })),
    text: z.string().describe('The same, as compact text'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, ...options }) => ctx.perception.describeScreen(device, options),
  summarize: (d) => d.text,
});

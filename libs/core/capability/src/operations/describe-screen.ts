import { z } from 'zod';
import { renderDescription, type ScreenDescriptionResult } from '@apex/perception';
import { ROLES } from '@apex/port';
import { defineOperation, WithScreen } from '../define-operation';
import { MAX_DESCRIBED_ELEMENTS } from '../limits';
import { deviceField, pointOut, rectOut } from '../schemas';

/**
 * The structured result a model reads beside the text: refs, roles, labels, centres (the points a tap by ref
 * hits; the text rounds them); bounds only when asked; the screen's size in points (its scale is device_status's);
 * `omittedElements` only when some were left out. The text rendering is the operation's summary (an MCP result's
 * text), not a second copy in here.
 */
export function slimDescription(d: ScreenDescriptionResult, withBounds = false): SlimDescription {
  const out: SlimDescription = {
    screen: { width: d.screen.width, height: d.screen.height },
    orientation: d.orientation,
    keyboardVisible: d.keyboardVisible,
    elements: d.elements.map(({ nodeId: _nodeId, bounds, ...e }) => (withBounds ? { ...e, bounds } : e)),
    ocrText: d.ocrText.map(({ text, center, bounds }) => (withBounds ? { text, center, bounds } : { text, center })),
  };
  if (d.app) out.app = d.app;
  if (d.alert) out.alert = d.alert;
  if (d.omittedElements > 0) out.omittedElements = d.omittedElements;
  if (d.staticText.length > 0) out.staticText = d.staticText;
  return out;
}

/** describe_screen's structured result (and an action's `observed.screen`). */
export type SlimDescription = z.input<typeof describeOutput>;

const describeOutput = z.object({
  app: z.object({ appId: z.string(), name: z.string().optional() }).optional(),
  screen: z.object({ width: z.number(), height: z.number() }),
  orientation: z.enum(['portrait', 'landscape']),
  alert: z.object({ title: z.string().optional(), message: z.string().optional(), buttons: z.array(z.string()) }).optional(),
  keyboardVisible: z.boolean(),
  elements: z.array(
    z.object({
      ref: z.string(),
      role: z.enum(ROLES),
      label: z.string().optional(),
      value: z.string().optional(),
      icon: z.string().optional(),
      center: pointOut,
      bounds: rectOut.optional(),
      disabled: z.boolean().optional(),
      selected: z.boolean().optional(),
      focused: z.boolean().optional(),
    }),
  ),
  omittedElements: z.number().optional(),
  staticText: z.array(z.object({ text: z.string(), center: pointOut })).optional(),
  ocrText: z.array(z.object({ text: z.string(), center: pointOut, bounds: rectOut.optional() })),
});

export const describeScreenOperation = defineOperation({
  name: 'describe_screen',
  title: 'Describe screen',
  description:
    'The screen for deciding what to do: app, alert, keyboard, actionable elements, OCR text. Each element has a `ref` ("e12") for tap, swipe, input_text… instead of coordinates; it holds while the element is on screen, even moved (gone: element_not_found). Actions take `observe`: "summary" (default; one more screen read, ~50–300 ms), "describe" (this, once settled; seconds with OCR) or "none".',
  input: z.strictObject({
    device: deviceField,
    maxElements: z.number().int().min(1).max(MAX_DESCRIBED_ELEMENTS).optional().describe('default 60'),
    includeOcrText: z.boolean().optional().describe('default true; false is faster'),
    bounds: z.boolean().optional(),
  }),
  output: describeOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'observe',
  // The summary (an MCP result's text, the agent's view) is the description's own text, rendered once; a
  // result another node answered (a cluster's listAll) is rendered here by the same renderer.
  summarize: (output) => renderDescription(output),
  handler: async (ctx, { device, bounds, ...options }) => {
    const screen = await ctx.perception.describeScreen(device, options);
    return new WithScreen(slimDescription(screen, bounds), screen);
  },
});

import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { MAX_ICON_NAME_LENGTH, MAX_TEMPLATE_LENGTH } from '../limits';
import { deviceField, pointOut, rectOut, regionField } from '../schemas';

export const findIconOperation = defineOperation({
  name: 'find_icon',
  title: 'Find icon',
  description:
    'Finds an icon or glyph by `name` (e.g. "search", "settings", "back", "trash") or by a `template` image, and returns each match with its `center` in points to tap.',
  input: z
    .strictObject({
      device: deviceField,
      name: z.string().trim().min(1).max(MAX_ICON_NAME_LENGTH).optional().describe('Icon name or accessibility label'),
      template: z
        .string()
        .min(1)
        .max(MAX_TEMPLATE_LENGTH)
        .optional()
        .describe('Base64 PNG cropped from a native-scale screenshot'),
      threshold: z.number().min(0).max(1).optional().describe('Minimum confidence 0..1'),
      region: regionField,
    })
    .refine((input) => input.name !== undefined || input.template !== undefined, {
      message: 'give a name or a template',
      path: ['name'],
    }),
  output: z.object({
    matches: z.array(
      z.object({
        label: z.string().optional(),
        bounds: rectOut,
        center: pointOut,
        confidence: z.number(),
        source: z.enum(['ui-tree', 'template', 'library']),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handler: async (ctx, { device, ...query }) => ctx.perception.findIcon(device, query),
  summarize: ({ matches }) =>
    matches.length === 0
      ? 'No matching icon on the screen.'
      : `${matches.length} match(es): ${matches
          .map((m) => `${m.label ? `"${m.label}" ` : ''}center (${Math.round(m.center.x)}, ${Math.round(m.center.y)}) [${m.source}, ${m.confidence.toFixed(2)}]`)
          .join('; ')}`,
});

import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { MAX_ICON_NAME_LENGTH, MAX_TEMPLATE_LENGTH } from '../limits';
import { deviceField, pointOut, rectOut, regionField } from '../schemas';

export const findIconOperation = defineOperation({
  name: 'find_icon',
  title: 'Find icon',
  description:
    'Finds an icon by `name` ("search", "back", "trash"…) or a `template` image: each match with its `ref` and `center`.',
  input: z
    .strictObject({
      device: deviceField,
      name: z.string().trim().min(1).max(MAX_ICON_NAME_LENGTH).optional().describe('or label'),
      template: z
        .string()
        .min(1)
        .max(MAX_TEMPLATE_LENGTH)
        .optional()
        .describe('Base64 PNG crop of a native-scale screenshot'),
      threshold: z.number().min(0).max(1).optional().describe('0..1'),
      region: regionField,
    })
    .refine((input) => input.name !== undefined || input.template !== undefined, {
      message: 'give a name or a template',
      path: ['name'],
    }),
  output: z.object({
    matches: z.array(
      z.object({
        ref: z.string().optional(),
        label: z.string().optional(),
        bounds: rectOut,
        center: pointOut,
        confidence: z.number(),
        source: z.enum(['ui-tree', 'template', 'library']),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'inspect',
  handler: async (ctx, { device, ...query }) => ctx.perception.findIcon(device, query),
  summarize: ({ matches }) =>
    matches.length === 0
      ? 'No matching icon on the screen.'
      : `${matches.length} match(es): ${matches
          .map((m) => `${m.label ? `"${m.label}" ` : ''}center (${Math.round(m.center.x)}, ${Math.round(m.center.y)}) [${m.source}, ${m.confidence.toFixed(2)}]`)
          .join('; ')}`,
});

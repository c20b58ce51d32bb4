import { z } from 'zod';
import { defineOperation } from '../define-operation';
import { deviceField, pointOut, rectOut, regionField, searchTextField } from '../schemas';

export const findTextOperation = defineOperation({
  name: 'find_text',
  title: 'Find text',
  description:
    'Finds visible text (UI tree, then OCR): each match with `ref`, bounds, `center`. Case-insensitive substring unless `exact`/`caseSensitive`.',
  input: z.strictObject({
    device: deviceField,
    text: searchTextField(),
    exact: z.boolean().optional().describe('whole text'),
    caseSensitive: z.boolean().optional(),
    region: regionField,
    source: z.enum(['auto', 'ui-tree', 'ocr']).optional().describe('default auto'),
  }),
  output: z.object({
    matches: z.array(
      z.object({
        ref: z.string().optional(),
        text: z.string(),
        bounds: rectOut,
        center: pointOut,
        confidence: z.number().describe('0..1'),
        source: z.enum(['ui-tree', 'ocr']),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: 'observe',
  handler: async (ctx, { device, ...query }) => ctx.perception.findText(device, query),
  summarize: ({ matches }) =>
    matches.length === 0
      ? 'No matching text on the screen.'
      : `${matches.length} match(es): ${matches
          .map((m) => `"${m.text}" center (${Math.round(m.center.x)}, ${Math.round(m.center.y)}) [${m.source}, ${m.confidence.toFixed(2)}]`)
          .join('; ')}`,
});

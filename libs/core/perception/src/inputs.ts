import { z } from 'zod';

/**
 * Input rules of the perception API, checked at its boundary (callers may reuse these schemas). Coordinates
 * in points.
 */
const finite = z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a finite number') });

export const RegionSchema = z.object({
  x: finite.min(0),
  y: finite.min(0),
  width: finite.positive(),
  height: finite.positive(),
});

export const FindTextQuerySchema = z.object({
  text: z
    .string()
    .max(500)
    .refine((text) => /[\p{L}\p{N}]/u.test(text), 'must contain at least one letter or digit'),
  exact: z.boolean().optional(),
  caseSensitive: z.boolean().optional(),
  region: RegionSchema.optional(),
  source: z.enum(['auto', 'ui-tree', 'ocr']).optional(),
});

/** About 3 MB of base64 PNG: far more than any icon needs. */
const MAX_TEMPLATE_CHARS = 4_000_000;

export const FindIconQuerySchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    template: z.string().min(1).max(MAX_TEMPLATE_CHARS).optional(),
    threshold: z.number().min(0).max(1).optional(),
    region: RegionSchema.optional(),
  })
  .refine((q) => q.name !== undefined || q.template !== undefined, {
    message: 'give a name, a template, or both',
    path: ['name'],
  });

export const UiTreeOptionsSchema = z.object({
  interactiveOnly: z.boolean().optional(),
  maxDepth: z.number().int().min(0).max(200).optional(),
  format: z.enum(['tree', 'flat']).optional(),
});

export const DescribeOptionsSchema = z.object({
  maxElements: z.number().int().min(1).max(500).optional(),
  includeOcrText: z.boolean().optional(),
});

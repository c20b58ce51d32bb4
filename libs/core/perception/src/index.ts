export * from './types';
export { Perception } from './perception';
export { DescribeOptionsSchema, FindIconQuerySchema, FindTextQuerySchema, RegionSchema, UiTreeOptionsSchema } from './inputs';
export { GLYPH_NAMES, GLYPH_SYNONYMS, type GlyphName } from './icons/glyph-library';

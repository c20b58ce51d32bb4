export * from './types';
export { Perception } from './perception';
export { GLYPH_NAMES, GLYPH_SYNONYMS, type GlyphName } from './icons/glyph-library';

export * from './types';
export { Perception } from './perception';
export { GLYPH_NAMES, GLYPH_SYNONYMS, type GlyphName } from './icons/glyph-library';
export { OcrService, type OcrStats } from './ocr/ocr-service';
export { TesseractPool, type TesseractPoolOptions } from './ocr/tesseract-pool';
export type { OcrLine, OcrPage, OcrWord } from './ocr/ocr-types';
export { renderDescription, type RenderableDescription } from './describe/render';
export { drawMarks, type Mark } from './marks/set-of-marks';
export { sharp } from './sharp';

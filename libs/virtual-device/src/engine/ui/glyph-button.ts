import { drawGlyph, type GlyphName } from '../render/glyphs';
import type { View } from '../view';

export const GLYPH_BUTTON_SIZE = 44;
export const GLYPH_SIZE = 24;

/**
 * An icon-only button with NO accessibility label or identifier (as many real apps ship them): only its pixels
 * say what it is. The glyph name is kept in the uid so tests can check what an icon finder picked.
 */
export function glyphButton(uid: string, glyph: GlyphName, centerX: number, centerY: number, color: string, onTap: () => void): View {
  // Whole points, so identical glyphs are identical pixels wherever they sit.
  const cx = Math.round(centerX);
  const cy = Math.round(centerY);
  return {
    uid,
    type: 'Button',
    rect: { x: cx - GLYPH_BUTTON_SIZE / 2, y: cy - GLYPH_BUTTON_SIZE / 2, width: GLYPH_BUTTON_SIZE, height: GLYPH_BUTTON_SIZE },
    onTap,
    draw: ({ ctx }) => drawGlyph(ctx, glyph, cx, cy, GLYPH_SIZE, color),
  };
}

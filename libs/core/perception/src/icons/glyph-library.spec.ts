import { createHash } from 'node:crypto';
import { drawGlyph, GLYPH_NAMES, glyphLibrary } from './glyph-library';

describe('the built-in glyph library', () => {
  it('draws every glyph (and variant) as dark ink on white, cropped to the ink', () => {
    const library = glyphLibrary();
    for (const name of GLYPH_NAMES) {
      const templates = library.get(name) ?? [];
      expect(templates.length).toBeGreaterThan(0);
      templates.forEach((template, variant) => {
        const { width, height, data } = drawGlyph(name, variant);
        expect(template.gray.width).toBe(width);
        const ink = data.filter((v) => v < 0.5).length / (width * height);
        expect(ink).toBeGreaterThan(0.05);
        expect(ink).toBeLessThan(0.6);
        expect(width).toBeLessThanOrEqual(96);
        expect(height).toBeLessThanOrEqual(96);
      });
    }
  });

  it('draws different glyphs differently', () => {
    const signatures = GLYPH_NAMES.map((name) => {
      const { width, height, data } = drawGlyph(name);
      const pixels = Buffer.from(Uint8Array.from(data, (v) => Math.round(v * 255)));
      return `${width}x${height}:${createHash('sha1').update(pixels).digest('hex')}`;
    });
    expect(new Set(signatures).size).toBe(GLYPH_NAMES.length);
  });
});

import { ScreenImage } from '../screen-image';
import { cropPng, renderScreen } from '../testing/rendered-screen';
import { DEFAULT_LIBRARY_THRESHOLD, DEFAULT_TEMPLATE_THRESHOLD, findGlyphInPixels, findTemplateInPixels } from './icon-finders';
import { GLYPH_NAMES, glyphForName } from './glyph-library';
import { decodeGray } from './gray-image';
import { screenEdges } from './screen-edges';
import { nonMaximumSuppression } from './template-match';
import { PixelPool } from '../workers/pixel-pool';

const ICONS = [
  { kind: 'magnifier' as const, cx: 40, cy: 120, size: 24 },
  { kind: 'trash' as const, cx: 120, cy: 500, size: 26 },
  { kind: 'trash' as const, cx: 300, cy: 500, size: 26 },
  { kind: 'plus' as const, cx: 350, cy: 60, size: 22 },
  { kind: 'gear' as const, cx: 200, cy: 700, size: 26 },
];
const TEXTS = [{ text: 'Albums and Photos', x: 20, baseline: 300 }];

function centers(matches: { center: { x: number; y: number } }[]) {
  return matches.map((m) => m.center).sort((a, b) => a.x - b.x || a.y - b.y);
}

describe('icon matching on rendered screens', () => {
  const pixels = new PixelPool({ size: 1 });
  afterAll(() => pixels.close());

  for (const dark of [false, true]) {
    describe(dark ? 'dark theme' : 'light theme', () => {
      const screen = renderScreen({ icons: ICONS, texts: TEXTS, dark });

      it('finds each of two identical glyphs once with a template cropped from the light screen', async () => {
        const lightScreen = renderScreen({ icons: ICONS, texts: TEXTS });
        const template = await decodeGray(await cropPng(lightScreen, lightScreen.iconBounds[1]));
        const edges = await screenEdges(new ScreenImage(screen.png, screen.scale), pixels);
        const matches = await findTemplateInPixels(pixels, edges, template, screen.scale, DEFAULT_TEMPLATE_THRESHOLD);
        expect(matches).toHaveLength(2);
        const [left, right] = centers(matches);
        expect(left.x).toBeCloseTo(120, -0.5);
        expect(left.y).toBeCloseTo(500, -0.5);
        expect(right.x).toBeCloseTo(300, -0.5);
        expect(matches.every((m) => m.source === 'template' && m.confidence >= DEFAULT_TEMPLATE_THRESHOLD)).toBe(true);
      });

      it('finds unlabeled glyphs by name with the built-in library', async () => {
        const edges = await screenEdges(new ScreenImage(screen.png, screen.scale), pixels);
        const search = await findGlyphInPixels(pixels, edges, 'search', DEFAULT_LIBRARY_THRESHOLD);
        expect(search).toHaveLength(1);
        expect(Math.abs(search[0].center.x - 40)).toBeLessThanOrEqual(4);
        expect(Math.abs(search[0].center.y - 120)).toBeLessThanOrEqual(4);
        expect(search[0]).toMatchObject({ label: 'search', source: 'library' });

        const trash = await findGlyphInPixels(pixels, edges, 'trash', DEFAULT_LIBRARY_THRESHOLD);
        expect(centers(trash).map((c) => Math.round(c.x / 10) * 10)).toEqual([120, 300]);

        const add = await findGlyphInPixels(pixels, edges, 'add', DEFAULT_LIBRARY_THRESHOLD);
        expect(add.some((m) => Math.abs(m.center.x - 350) <= 4 && Math.abs(m.center.y - 60) <= 4)).toBe(true);

        const gear = await findGlyphInPixels(pixels, edges, 'settings', DEFAULT_LIBRARY_THRESHOLD);
        expect(gear.some((m) => Math.abs(m.center.x - 200) <= 4 && Math.abs(m.center.y - 700) <= 4)).toBe(true);
      });

      it('does not report a glyph that is not on screen where another glyph is', async () => {
        const edges = await screenEdges(new ScreenImage(screen.png, screen.scale), pixels);
        const close = await findGlyphInPixels(pixels, edges, 'close', DEFAULT_LIBRARY_THRESHOLD);
        for (const icon of ICONS) {
          expect(close.some((m) => Math.abs(m.center.x - icon.cx) < 8 && Math.abs(m.center.y - icon.cy) < 8)).toBe(false);
        }
      });
    });
  }
});

describe('glyph names and suppression', () => {
  it('resolves synonyms to built-in glyphs', () => {
    expect(glyphForName('gear')).toBe('settings');
    expect(glyphForName('Magnifying glass')).toBe('search');
    expect(glyphForName('xmark')).toBe('close');
    expect(glyphForName('delete')).toBe('trash');
    expect(glyphForName('wifi')).toBeUndefined();
    expect(GLYPH_NAMES).toEqual(['settings', 'search', 'add', 'back', 'forward', 'close', 'share', 'trash']);
  });

  it('keeps the best of overlapping boxes and every separate one', () => {
    const kept = nonMaximumSuppression([
      { x: 0, y: 0, width: 20, height: 20, score: 0.7 },
      { x: 2, y: 1, width: 20, height: 20, score: 0.9 },
      { x: 100, y: 0, width: 20, height: 20, score: 0.6 },
    ]);
    expect(kept.map((k) => k.score)).toEqual([0.9, 0.6]);
  });
});

import { ScreenImage } from '../screen-image';
import { DEFAULT_TEMPLATE_THRESHOLD, findGlyphInPixels, findTemplateInPixels, identifyGlyph } from '../icons/icon-finders';
import { decodeGray } from '../icons/gray-image';
import { screenEdges } from '../icons/screen-edges';
import type { SearchImage } from '../icons/template-match';
import { noisePng } from '../testing/noise-image';
import { cropPng, renderScreen } from '../testing/rendered-screen';
import { inlinePixels, PixelPool } from './pixel-pool';

const ICONS = [
  { kind: 'magnifier' as const, cx: 40, cy: 120, size: 24 },
  { kind: 'trash' as const, cx: 120, cy: 500, size: 26 },
  { kind: 'trash' as const, cx: 300, cy: 500, size: 26 },
  { kind: 'gear' as const, cx: 200, cy: 700, size: 26 },
];
const TEXTS = [{ text: 'Albums and Photos', x: 20, baseline: 300 }];

describe('PixelPool (icon matching in worker threads)', () => {
  const pool = new PixelPool({ size: 1 });
  const screen = renderScreen({ icons: ICONS, texts: TEXTS });

  afterAll(() => pool.close());

  it('builds the same edge maps as the kernels on this thread', async () => {
    const [inWorker, inline] = await Promise.all([
      screenEdges(new ScreenImage(screen.png, screen.scale), pool),
      screenEdges(new ScreenImage(screen.png, screen.scale), inlinePixels),
    ]);
    for (const level of ['fine', 'coarse'] as const) {
      expect(inWorker[level].edges.width).toBe(inline[level].edges.width);
      expect(inWorker[level].edges.height).toBe(inline[level].edges.height);
      expect(Buffer.from(inWorker[level].planes.buffer).equals(Buffer.from(inline[level].planes.buffer))).toBe(true);
      expect(Buffer.from(inWorker[level].sum.buffer).equals(Buffer.from(inline[level].sum.buffer))).toBe(true);
    }
  });

  it('finds exactly what the synchronous search finds: templates, glyphs, a glyph in a region', async () => {
    const inWorker = await screenEdges(new ScreenImage(screen.png, screen.scale), pool);
    const inline = await screenEdges(new ScreenImage(screen.png, screen.scale), inlinePixels);
    const trash = await decodeGray(await cropPng(screen, screen.iconBounds[1]));
    const noise = await decodeGray(await noisePng(96));
    const run = async (pixels: typeof inlinePixels, edges: typeof inline) => ({
      trash: await findTemplateInPixels(pixels, edges, trash, screen.scale, DEFAULT_TEMPLATE_THRESHOLD),
      // A low threshold, so even noise has matches to compare.
      noise: await findTemplateInPixels(pixels, edges, noise, screen.scale, 0.2),
      glyphTrash: await findGlyphInPixels(pixels, edges, 'trash', 0.6),
      glyphSettings: await findGlyphInPixels(pixels, edges, 'settings', 0.6),
      identified: await identifyGlyph(pixels, edges, { x: 180, y: 680, width: 40, height: 40 }),
    });
    const fromWorker = await run(pool, inWorker);
    const fromThisThread = await run(inlinePixels, inline);
    expect(fromWorker).toEqual(fromThisThread);
    expect(fromWorker.trash).toHaveLength(2);
    expect(fromWorker.noise.length).toBeGreaterThan(0);
    expect(fromWorker.glyphTrash).toHaveLength(2);
    expect(fromWorker.identified).toMatchObject({ label: 'settings' });
  });

  it('turns a failure inside a worker into an internal error, and keeps serving', async () => {
    const job = { template: { width: 8, height: 8, data: new Float32Array(64).fill(0.5) }, width: 8, height: 8 };
    await expect(pool.scores({} as SearchImage, [job])).rejects.toMatchObject({ code: 'internal' });
    const edges = await screenEdges(new ScreenImage(screen.png, screen.scale), pool);
    await expect(pool.scores(edges.coarse, [job])).resolves.toHaveLength(1);
  });
});

describe('PixelPool lifecycle', () => {
  it('starts no thread until used, one on first use, none after close (idempotent; later calls refused)', async () => {
    const pool = new PixelPool({ size: 2 });
    expect(pool.workerCount).toBe(0);
    const screen = renderScreen({ icons: ICONS });
    const edges = await screenEdges(new ScreenImage(screen.png, screen.scale), pool);
    expect(pool.workerCount).toBe(1);
    const flat = { template: { width: 9, height: 9, data: new Float32Array(81) }, width: 9, height: 9 };
    const pending = pool.scores(edges.fine, [flat]);
    await pool.close();
    await pool.close();
    expect(pool.workerCount).toBe(0);
    await expect(pending).rejects.toMatchObject({ code: 'internal' });
    await expect(screenEdges(new ScreenImage(screen.png, screen.scale), pool)).rejects.toMatchObject({ code: 'internal' });
  });
});

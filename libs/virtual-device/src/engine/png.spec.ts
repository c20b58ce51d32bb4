import sharp from 'sharp';
import { PngEncoder } from './render/png';

jest.setTimeout(60_000);

/** Deterministic pseudo-random opaque pixels (no Math.random: the test must be repeatable). */
function pixels(width: number, height: number, seed: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  let s = seed;
  for (let i = 0; i < out.length; i += 4) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = s & 0xff;
    out[i + 1] = (s >>> 8) & 0xff;
    out[i + 2] = (s >>> 16) & 0xff;
    out[i + 3] = 255;
  }
  return out;
}

async function decodeRaw(png: Buffer): Promise<Buffer> {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

describe('PngEncoder', () => {
  it('round-trips pixels through an independent decoder, across partial changes', async () => {
    const width = 37;
    const height = 300; // several strips, the last one short
    const encoder = new PngEncoder();
    const a = pixels(width, height, 1);
    expect((await decodeRaw(encoder.encode(a, width, height))).equals(a)).toBe(true);
    // Change one row in the middle: only its strip is recompressed.
    const b = Buffer.from(a);
    b.fill(7, 150 * width * 4, 151 * width * 4);
    const pngB = encoder.encode(b, width, height);
    expect((await decodeRaw(pngB)).equals(b)).toBe(true);
    // The bytes depend on the pixels only, not on what was encoded before.
    expect(new PngEncoder().encode(b, width, height).equals(pngB)).toBe(true);
    // A size change starts afresh.
    const c = pixels(20, 10, 2);
    expect((await decodeRaw(encoder.encode(c, 20, 10))).equals(c)).toBe(true);
  });
});

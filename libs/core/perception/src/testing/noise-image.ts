import sharp from 'sharp';

/** Test support: a PNG (square unless `height` is given) of deterministic colour noise (the worst case for template matching: edges everywhere). */
export function noisePng(side: number, seed = 1, height = side): Promise<Buffer> {
  let state = seed;
  const pixels = Buffer.alloc(side * height * 3);
  for (let i = 0; i < pixels.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: side, height, channels: 3 } }).png().toBuffer();
}

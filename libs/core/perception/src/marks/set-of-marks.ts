import { sharp } from '../sharp';
import type { Rect } from '@apex/port';

/** One element drawn on a set-of-marks image: its box (points) and the ref whose number labels it. */
export interface Mark {
  ref: string;
  bounds: Rect;
}

/** Seven-segment digits, drawn as lines: no font is needed, so every machine draws the same pixels. */
const SEGMENTS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abged',
  '3': 'abgcd',
  '4': 'fgbc',
  '5': 'afgcd',
  '6': 'afgedc',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};
/** Each segment's ends in a 4 × 8 cell. */
const SEGMENT_LINES: Record<string, [number, number, number, number]> = {
  a: [0, 0, 4, 0],
  b: [4, 0, 4, 4],
  c: [4, 4, 4, 8],
  d: [0, 8, 4, 8],
  e: [0, 4, 0, 8],
  f: [0, 0, 0, 4],
  g: [0, 4, 4, 4],
};
const COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#f032e6', '#9a6324'];

/**
 * The image with each mark's box outlined and its ref's number on a tag at the box's top-left corner, in the
 * image's own format. `pixelsPerPoint` maps the marks' points onto the image's pixels.
 */
export async function drawMarks(image: Buffer, format: 'jpeg' | 'png', marks: readonly Mark[], pixelsPerPoint: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  // A digit is 4 × 8 units: about 6.4 × 13 points, legible to a vision model at any scale.
  const unit = 1.6 * pixelsPerPoint;
  const shapes = marks.map((mark, i) => markSvg(mark, COLORS[i % COLORS.length] as string, pixelsPerPoint, unit)).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes}</svg>`;
  const composed = sharp(image).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]);
  return format === 'png' ? composed.png().toBuffer() : composed.jpeg({ quality: 80 }).toBuffer();
}

function markSvg(mark: Mark, color: string, ppp: number, unit: number): string {
  const x = mark.bounds.x * ppp;
  const y = mark.bounds.y * ppp;
  const box = `<rect x="${x}" y="${y}" width="${mark.bounds.width * ppp}" height="${mark.bounds.height * ppp}" fill="none" stroke="${color}" stroke-width="${unit * 1.5}"/>`;
  const digits = mark.ref.replace(/\D/g, '');
  const digitWidth = 4 * unit;
  const gap = 2 * unit;
  const pad = 2 * unit;
  const tagWidth = pad * 2 + digits.length * digitWidth + (digits.length - 1) * gap;
  const tagHeight = pad * 2 + 8 * unit;
  const tag = `<rect x="${x}" y="${y}" width="${tagWidth}" height="${tagHeight}" fill="${color}"/>`;
  const strokes = [...digits]
    .flatMap((digit, i) =>
      [...(SEGMENTS[digit] ?? '')].map((segment) => {
        const [x1, y1, x2, y2] = SEGMENT_LINES[segment] as [number, number, number, number];
        const ox = x + pad + i * (digitWidth + gap);
        const oy = y + pad;
        return `M${ox + x1 * unit} ${oy + y1 * unit}L${ox + x2 * unit} ${oy + y2 * unit}`;
      }),
    )
    .join('');
  return `${box}${tag}<path d="${strokes}" stroke="#fff" stroke-width="${unit * 1.2}" stroke-linecap="round" fill="none"/>`;
}

import { compactText, foldText } from '@apex/port';
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { GrayImage } from './gray-image';
import { ScalableTemplate } from './scalable-template';

/** The built-in glyphs and the words that name them (labels, SF Symbol names, everyday synonyms). */
export const GLYPH_SYNONYMS = {
  settings: ['settings', 'gear', 'gearshape', 'cog', 'preferences', 'options', 'configure'],
  search: ['search', 'magnifier', 'magnifyingglass', 'magnifying glass', 'find', 'loupe', 'lookup'],
  add: ['add', 'plus', 'new', 'create', 'insert'],
  back: ['back', 'chevron', 'chevron left', 'chevronleft', 'previous', 'return', 'arrow left'],
  forward: ['forward', 'next', 'chevron right', 'chevronright', 'disclosure', 'arrow right'],
  close: ['close', 'x', 'xmark', 'dismiss', 'cancel', 'clear', 'exit'],
  share: ['share', 'export', 'send', 'square and arrow up', 'squareandarrowup'],
  trash: ['trash', 'delete', 'bin', 'remove', 'garbage', 'rubbish', 'wastebasket'],
} as const;

export type GlyphName = keyof typeof GLYPH_SYNONYMS;
export const GLYPH_NAMES = Object.keys(GLYPH_SYNONYMS) as GlyphName[];

const CANVAS = 96;
const STROKE = 7;

/** A gear: eight trapezoid teeth around a ring, and the hub; `phase` turns the teeth (fraction of a pitch). */
function gear(phase: number): (g: SKRSContext2D) => void {
  return (g) => {
    const teeth = 8;
    const outer = 41;
    const inner = 31;
    const pitch = (Math.PI * 2) / teeth;
    g.beginPath();
    for (let i = 0; i < teeth; i++) {
      const a = (i + phase) * pitch;
      const points: [number, number][] = [
        [a - pitch * 0.3, inner],
        [a - pitch * 0.17, outer],
        [a + pitch * 0.17, outer],
        [a + pitch * 0.3, inner],
      ];
      points.forEach(([angle, r], k) => {
        const x = 48 + r * Math.cos(angle);
        const y = 48 + r * Math.sin(angle);
        if (i === 0 && k === 0) g.moveTo(x, y);
        else g.lineTo(x, y);
      });
    }
    g.closePath();
    g.stroke();
    g.beginPath();
    g.arc(48, 48, 12, 0, Math.PI * 2);
    g.stroke();
  };
}

/**
 * Line glyphs in the spirit of SF Symbols (regular weight), drawn on a 96 × 96 canvas. A glyph may have
 * variants where icon sets commonly differ (a gear's teeth sit at different angles from set to set).
 */
const DRAWINGS: Record<GlyphName, ((g: SKRSContext2D) => void)[]> = {
  settings: [gear(0), gear(0.25), gear(0.5), gear(0.75)],
  search: [(g) => {
    g.beginPath();
    g.arc(40, 40, 27, 0, Math.PI * 2);
    g.stroke();
    g.lineWidth = STROKE * 1.3;
    line(g, 60, 60, 86, 86);
  }],
  add: [(g) => {
    line(g, 48, 10, 48, 86);
    line(g, 10, 48, 86, 48);
  }],
  back: [(g) => {
    g.beginPath();
    g.moveTo(64, 8);
    g.lineTo(26, 48);
    g.lineTo(64, 88);
    g.stroke();
  }],
  forward: [
    (g) => {
      g.beginPath();
      g.moveTo(32, 8);
      g.lineTo(70, 48);
      g.lineTo(32, 88);
      g.stroke();
    },
  ],
  close: [(g) => {
    line(g, 16, 16, 80, 80);
    line(g, 80, 16, 16, 80);
  }],
  share: [(g) => {
    g.beginPath();
    g.moveTo(34, 36);
    g.lineTo(20, 36);
    g.lineTo(20, 90);
    g.lineTo(76, 90);
    g.lineTo(76, 36);
    g.lineTo(62, 36);
    g.stroke();
    line(g, 48, 6, 48, 60);
    g.beginPath();
    g.moveTo(32, 22);
    g.lineTo(48, 6);
    g.lineTo(64, 22);
    g.stroke();
  }],
  trash: [(g) => {
    line(g, 12, 22, 84, 22);
    g.beginPath();
    g.moveTo(36, 22);
    g.lineTo(38, 10);
    g.lineTo(58, 10);
    g.lineTo(60, 22);
    g.stroke();
    g.beginPath();
    g.moveTo(20, 22);
    g.lineTo(25, 88);
    g.lineTo(71, 88);
    g.lineTo(76, 22);
    g.stroke();
    line(g, 38, 36, 39, 74);
    line(g, 58, 36, 57, 74);
  }],
};

function line(g: SKRSContext2D, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
}

let library: Map<GlyphName, ScalableTemplate[]> | undefined;

/** The built-in glyph templates (each glyph's variants), drawn once on first use. */
export function glyphLibrary(): Map<GlyphName, ScalableTemplate[]> {
  if (!library) {
    library = new Map(
      GLYPH_NAMES.map((name) => [name, DRAWINGS[name].map((_, variant) => new ScalableTemplate(drawGlyph(name, variant), name))]),
    );
  }
  return library;
}

/** Dark ink on white, cropped to the ink plus a small margin. */
export function drawGlyph(name: GlyphName, variant = 0): GrayImage {
  // Required on the first glyph drawn, not at start-up.
  const { createCanvas } = require('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
  const canvas = createCanvas(CANVAS, CANVAS);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, CANVAS, CANVAS);
  g.strokeStyle = '#000000';
  g.lineWidth = STROKE;
  g.lineCap = 'round';
  g.lineJoin = 'round';
  DRAWINGS[name][variant](g);
  const { data } = g.getImageData(0, 0, CANVAS, CANVAS);
  const gray = new Float32Array(CANVAS * CANVAS);
  for (let i = 0; i < gray.length; i++) gray[i] = data[i * 4] / 255;
  return cropToInk({ width: CANVAS, height: CANVAS, data: gray }, 4);
}

function cropToInk(image: GrayImage, margin: number): GrayImage {
  let x0 = image.width;
  let y0 = image.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.data[y * image.width + x] < 0.5) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  if (x1 < 0) return image;
  x0 = Math.max(0, x0 - margin);
  y0 = Math.max(0, y0 - margin);
  x1 = Math.min(image.width - 1, x1 + margin);
  y1 = Math.min(image.height - 1, y1 + margin);
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data[y * width + x] = image.data[(y + y0) * image.width + x + x0];
  }
  return { width, height, data };
}

/** The glyph a name refers to ("magnifier" → search), or undefined. */
export function glyphForName(name: string): GlyphName | undefined {
  const wanted = foldText(name);
  const compact = compactText(name);
  for (const glyph of GLYPH_NAMES) {
    for (const synonym of GLYPH_SYNONYMS[glyph]) {
      if (synonym === wanted || synonym.replace(/ /g, '') === compact) return glyph;
    }
  }
  return undefined;
}

import type { SKRSContext2D } from '@napi-rs/canvas';
import { drawText, wrapText } from './render/paint';
import { measure, measureContext } from './render/measure';

/** Web pages as both phones' browsers draw them: blocks of text laid out for a viewport, then drawn. */

/** One block of a web page: its text exists only as pixels (never in the accessibility tree). */
export interface Block {
  kind: 'h1' | 'h2' | 'p' | 'link';
  text: string;
  /** For links: where tapping them goes. */
  href?: string;
}

export interface WebPage {
  title: string;
  blocks: Block[];
}

const STYLE: Record<Block['kind'], { size: number; bold: boolean; lineHeight: number; before: number }> = {
  h1: { size: 30, bold: true, lineHeight: 38, before: 8 },
  h2: { size: 22, bold: true, lineHeight: 30, before: 18 },
  p: { size: 17, bold: false, lineHeight: 24, before: 10 },
  link: { size: 17, bold: false, lineHeight: 24, before: 10 },
};

export interface PlacedBlock {
  block: Block;
  lines: string[];
  /** Offset from the top of the page content, in points. */
  y: number;
  height: number;
}

const MARGIN = 20;

const layouts = new Map<string, { blocks: PlacedBlock[]; height: number }>();

/** Lays the page out for a viewport `width` points wide: the same layout serves drawing and link taps. */
export function layoutPage(page: WebPage, width: number): { blocks: PlacedBlock[]; height: number } {
  const key = `${width}|${page.title}|${page.blocks.map((b) => b.text).join('\n')}`;
  let layout = layouts.get(key);
  if (!layout) {
    if (layouts.size > 50) layouts.clear();
    layout = computeLayout(page, width);
    layouts.set(key, layout);
  }
  return layout;
}

function computeLayout(page: WebPage, width: number): { blocks: PlacedBlock[]; height: number } {
  const ctx = measureContext();
  let y = 16;
  const blocks = page.blocks.map((block) => {
    const s = STYLE[block.kind];
    y += s.before;
    const lines = wrapText(ctx, block.text, width - 2 * MARGIN, s.size, s.bold ? 'bold' : 'regular');
    const placed = { block, lines, y, height: lines.length * s.lineHeight };
    y += placed.height;
    return placed;
  });
  return { blocks, height: y + 40 };
}

export function drawPage(ctx: SKRSContext2D, placed: PlacedBlock[], left: number, top: number, colors: { text: string; link: string }): void {
  for (const p of placed) {
    const s = STYLE[p.block.kind];
    const color = p.block.kind === 'link' ? colors.link : colors.text;
    p.lines.forEach((line, i) => {
      const cy = top + p.y + i * s.lineHeight + s.lineHeight / 2;
      drawText(ctx, line, left + MARGIN, cy, { size: s.size, color, weight: s.bold ? 'bold' : 'regular' });
      if (p.block.kind === 'link') {
        const w = measure(line, s.size);
        ctx.fillStyle = color;
        ctx.fillRect(left + MARGIN, cy + s.size / 2 + 1, w, 1);
      }
    });
  }
}

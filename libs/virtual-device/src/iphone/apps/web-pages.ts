import type { SKRSContext2D } from '@napi-rs/canvas';
import { drawText, wrapText } from '../../engine/render/paint';
import { measure, measureContext } from '../../engine/render/measure';

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

export const HOME_URL = 'https://apex.example/';

const PAGES: Record<string, WebPage> = {
  'apex.example/': {
    title: 'Welcome to Apex',
    blocks: [
      { kind: 'h1', text: 'Welcome to Apex' },
      { kind: 'p', text: 'Apex lets agents and people drive mobile devices through one careful interface.' },
      { kind: 'p', text: 'This page is drawn inside a web view. Its words are pixels only, so reading them takes OCR.' },
      { kind: 'link', text: 'Read the getting started guide', href: 'https://apex.example/docs' },
      { kind: 'h2', text: 'What you can do' },
      { kind: 'p', text: 'Tap, swipe and type on a virtual iPhone. Take screenshots and read the screen.' },
      { kind: 'p', text: 'Find buttons by their label, or by their icon when they have no label at all.' },
      { kind: 'h2', text: 'Why pixels matter' },
      { kind: 'p', text: 'Many apps draw text that the accessibility tree never sees. Games, maps and web pages are common examples.' },
      { kind: 'p', text: 'An agent that can read pixels can still find its way around them.' },
      { kind: 'h2', text: 'The end of the page' },
      { kind: 'p', text: 'You scrolled all the way down. Thank you for reading.' },
    ],
  },
  'apex.example/docs': {
    title: 'Getting started',
    blocks: [
      { kind: 'h1', text: 'Getting started' },
      { kind: 'p', text: 'Step one: start the virtual iPhone. Step two: connect your agent. Step three: give it a task.' },
      { kind: 'link', text: 'Back to the welcome page', href: 'https://apex.example/' },
    ],
  },
};

/** Normalises what a user typed into the address bar into a URL. */
export function normalizeUrl(typed: string): string {
  const t = typed.trim();
  if (t === '') return HOME_URL;
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  return /^https?:\/\/[^/]+$/i.test(withScheme) ? `${withScheme}/` : withScheme;
}

export function pageFor(url: string): WebPage {
  const key = url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./, '');
  return (
    PAGES[key] ?? {
      title: 'Cannot Open Page',
      blocks: [
        { kind: 'h1', text: 'Safari Cannot Open the Page' },
        { kind: 'p', text: `Safari cannot open the page because the server "${key.split('/')[0]}" cannot be found.` },
      ],
    }
  );
}

/** Shown in the address bar when not editing: the host name. */
export function displayHost(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./, '').split('/')[0];
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

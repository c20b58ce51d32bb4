import { dirname, join } from 'node:path';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rect } from '@apex/port';
import sharp from 'sharp';

/**
 * Test support: real pixels to run OCR and template matching on. Draws in points on a canvas `scale` times
 * larger, like a phone screenshot, and reports where each text was drawn (points).
 */

const FONT_FAMILY = 'DejaVu Sans';
let fontsRegistered = false;

function registerFonts(): void {
  if (fontsRegistered) return;
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  GlobalFonts.registerFromPath(join(dir, 'DejaVuSans.ttf'), FONT_FAMILY);
  GlobalFonts.registerFromPath(join(dir, 'DejaVuSans-Bold.ttf'), FONT_FAMILY);
  fontsRegistered = true;
}

export interface TextSpec {
  text: string;
  /** Left edge and baseline, points. */
  x: number;
  baseline: number;
  size?: number;
  bold?: boolean;
}

export type IconKind = 'magnifier' | 'plus' | 'trash' | 'gear';

export interface IconSpec {
  kind: IconKind;
  /** Centre, points. */
  cx: number;
  cy: number;
  /** Box side, points. */
  size: number;
}

/** A tinted button: a rounded panel with its label in white. */
export interface PanelSpec {
  rect: Rect;
  color: string;
  text: string;
}

export interface ScreenSpec {
  width?: number;
  height?: number;
  scale?: number;
  dark?: boolean;
  texts?: TextSpec[];
  icons?: IconSpec[];
  panels?: PanelSpec[];
}

export interface RenderedScreen {
  png: Buffer;
  width: number;
  height: number;
  scale: number;
  /** Where each text's ink is, in points (same order as `texts`). */
  textBounds: Rect[];
  iconBounds: Rect[];
  /** Where each panel's label ink is, in points. */
  panelTextBounds: Rect[];
}

export function renderScreen(spec: ScreenSpec): RenderedScreen {
  registerFonts();
  const width = spec.width ?? 393;
  const height = spec.height ?? 852;
  const scale = spec.scale ?? 3;
  const canvas = createCanvas(width * scale, height * scale);
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  g.fillStyle = spec.dark ? '#000000' : '#ffffff';
  g.fillRect(0, 0, width, height);
  const ink = spec.dark ? '#ffffff' : '#000000';
  const tint = spec.dark ? '#0a84ff' : '#007aff';

  const textBounds = (spec.texts ?? []).map((t) => {
    const size = t.size ?? 17;
    g.font = `${t.bold ? 'bold ' : ''}${size}px "${FONT_FAMILY}"`;
    g.fillStyle = ink;
    g.fillText(t.text, t.x, t.baseline);
    const m = g.measureText(t.text);
    return {
      x: t.x - m.actualBoundingBoxLeft,
      y: t.baseline - m.actualBoundingBoxAscent,
      width: m.actualBoundingBoxLeft + m.actualBoundingBoxRight,
      height: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
    };
  });
  const panelTextBounds = (spec.panels ?? []).map((panel) => {
    g.fillStyle = panel.color;
    g.beginPath();
    g.roundRect(panel.rect.x, panel.rect.y, panel.rect.width, panel.rect.height, 12);
    g.fill();
    g.font = `17px "${FONT_FAMILY}"`;
    g.fillStyle = '#ffffff';
    const m = g.measureText(panel.text);
    const x = panel.rect.x + (panel.rect.width - m.width) / 2;
    const baseline = panel.rect.y + panel.rect.height / 2 + 6;
    g.fillText(panel.text, x, baseline);
    return {
      x: x - m.actualBoundingBoxLeft,
      y: baseline - m.actualBoundingBoxAscent,
      width: m.actualBoundingBoxLeft + m.actualBoundingBoxRight,
      height: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
    };
  });
  const iconBounds = (spec.icons ?? []).map((icon) => {
    drawIcon(g, icon, tint);
    return { x: icon.cx - icon.size / 2, y: icon.cy - icon.size / 2, width: icon.size, height: icon.size };
  });
  return { png: canvas.toBuffer('image/png'), width, height, scale, textBounds, iconBounds, panelTextBounds };
}

/** Test glyphs, drawn differently from the built-in library (thinner strokes, other proportions). */
function drawIcon(g: SKRSContext2D, icon: IconSpec, color: string): void {
  const s = icon.size;
  const x0 = icon.cx - s / 2;
  const y0 = icon.cy - s / 2;
  g.save();
  g.strokeStyle = color;
  g.lineWidth = Math.max(1.2, s / 13);
  g.lineCap = 'round';
  g.lineJoin = 'round';
  g.beginPath();
  switch (icon.kind) {
    case 'magnifier': {
      const r = s * 0.3;
      const c = x0 + s * 0.4;
      g.arc(c, y0 + s * 0.4, r, 0, Math.PI * 2);
      g.moveTo(c + r * 0.72, y0 + s * 0.4 + r * 0.72);
      g.lineTo(x0 + s * 0.92, y0 + s * 0.92);
      break;
    }
    case 'plus':
      g.moveTo(icon.cx, y0 + s * 0.1);
      g.lineTo(icon.cx, y0 + s * 0.9);
      g.moveTo(x0 + s * 0.1, icon.cy);
      g.lineTo(x0 + s * 0.9, icon.cy);
      break;
    case 'trash':
      g.moveTo(x0 + s * 0.12, y0 + s * 0.22);
      g.lineTo(x0 + s * 0.88, y0 + s * 0.22);
      g.moveTo(x0 + s * 0.38, y0 + s * 0.22);
      g.lineTo(x0 + s * 0.4, y0 + s * 0.1);
      g.lineTo(x0 + s * 0.6, y0 + s * 0.1);
      g.lineTo(x0 + s * 0.62, y0 + s * 0.22);
      g.moveTo(x0 + s * 0.2, y0 + s * 0.22);
      g.lineTo(x0 + s * 0.26, y0 + s * 0.92);
      g.lineTo(x0 + s * 0.74, y0 + s * 0.92);
      g.lineTo(x0 + s * 0.8, y0 + s * 0.22);
      g.moveTo(x0 + s * 0.42, y0 + s * 0.38);
      g.lineTo(x0 + s * 0.42, y0 + s * 0.76);
      g.moveTo(x0 + s * 0.58, y0 + s * 0.38);
      g.lineTo(x0 + s * 0.58, y0 + s * 0.76);
      break;
    case 'gear': {
      const teeth = 8;
      for (let i = 0; i <= teeth * 2; i++) {
        const a = (i / (teeth * 2)) * Math.PI * 2;
        const r = i % 2 === 0 ? s * 0.45 : s * 0.34;
        const px = icon.cx + r * Math.cos(a);
        const py = icon.cy + r * Math.sin(a);
        if (i === 0) g.moveTo(px, py);
        else g.lineTo(px, py);
      }
      g.moveTo(icon.cx + s * 0.14, icon.cy);
      g.arc(icon.cx, icon.cy, s * 0.14, 0, Math.PI * 2);
      break;
    }
  }
  g.stroke();
  g.restore();
}

/** A crop of a rendered screen (points), as PNG at the screen's pixel scale. */
export function cropPng(screen: RenderedScreen, rect: Rect): Promise<Buffer> {
  return sharp(screen.png)
    .extract({
      left: Math.round(rect.x * screen.scale),
      top: Math.round(rect.y * screen.scale),
      width: Math.round(rect.width * screen.scale),
      height: Math.round(rect.height * screen.scale),
    })
    .png()
    .toBuffer();
}

import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Rect } from '../element';
import { font, type FontWeight } from './fonts';

export interface TextStyle {
  size: number;
  color: string;
  weight?: FontWeight;
  align?: 'left' | 'center' | 'right';
}

/** Draws one line of text vertically centred on `cy`. */
export function drawText(ctx: SKRSContext2D, text: string, x: number, cy: number, style: TextStyle): void {
  ctx.font = font(style.size, style.weight);
  ctx.fillStyle = style.color;
  ctx.textAlign = style.align ?? 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, x, cy);
}

export function fillRect(ctx: SKRSContext2D, r: Rect, color: string): void {
  ctx.fillStyle = color;
  ctx.fillRect(r.x, r.y, r.width, r.height);
}

export function fillRoundRect(ctx: SKRSContext2D, r: Rect, radius: number, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.roundRect(r.x, r.y, r.width, r.height, radius);
  ctx.fill();
}

/** A thin horizontal line (hairline separators). */
export function hline(ctx: SKRSContext2D, x1: number, x2: number, y: number, color: string, width = 0.5): void {
  ctx.fillStyle = color;
  ctx.fillRect(x1, y - width / 2, x2 - x1, width);
}

/** The ">" disclosure indicator of table rows. */
export function drawChevron(ctx: SKRSContext2D, cx: number, cy: number, color: string, size = 7, dir: 'right' | 'left' = 'right'): void {
  const s = dir === 'right' ? 1 : -1;
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(cx - (s * size) / 2, cy - size);
  ctx.lineTo(cx + (s * size) / 2, cy);
  ctx.lineTo(cx - (s * size) / 2, cy + size);
  ctx.stroke();
}

/** A UISwitch (51×31 points) with its knob left (off) or right (on). */
export function drawSwitch(ctx: SKRSContext2D, r: Rect, on: boolean, onColor: string, offColor: string): void {
  fillRoundRect(ctx, r, r.height / 2, on ? onColor : offColor);
  const d = r.height - 4;
  const kx = on ? r.x + r.width - 2 - d : r.x + 2;
  ctx.fillStyle = '#ffffff';
  ctx.beginPath();
  ctx.arc(kx + d / 2, r.y + 2 + d / 2, d / 2, 0, Math.PI * 2);
  ctx.fill();
}

/** Splits text into lines that fit `maxWidth` (explicit "\n" always breaks). */
export function wrapText(ctx: SKRSContext2D, text: string, maxWidth: number, size: number, weight?: FontWeight): string[] {
  ctx.font = font(size, weight);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const words = paragraph.split(' ');
    let line = '';
    for (const word of words) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (ctx.measureText(candidate).width <= maxWidth || line === '') {
        line = candidate;
        // A single word longer than the line: break it by characters.
        while (ctx.measureText(line).width > maxWidth && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && ctx.measureText(line.slice(0, cut)).width > maxWidth) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      } else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

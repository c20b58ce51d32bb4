import type { Rect } from '../element';
import { drawText, wrapText } from '../render/paint';
import { measure, measureContext } from '../render/measure';
import type { Paint } from '../view';

export const TEXT_SIZE = 17;
export const LINE_HEIGHT = 22;

/** Wrapped lines of `text` for a box `width` points wide. */
export function layoutLines(text: string, width: number): string[] {
  return wrapText(measureContext(), text, width, TEXT_SIZE);
}

/** Draws editable text (or its placeholder) top-left aligned, with a caret after the last character when focused. */
export function drawEditableText(p: Paint, rect: Rect, text: string, placeholder: string, focused: boolean, color?: string): void {
  const { ctx, theme } = p;
  const lines = text === '' ? [''] : layoutLines(text, rect.width);
  if (text === '') drawText(ctx, placeholder, rect.x, rect.y + LINE_HEIGHT / 2, { size: TEXT_SIZE, color: theme.tertiaryLabel });
  else lines.forEach((line, i) => drawText(ctx, line, rect.x, rect.y + LINE_HEIGHT / 2 + i * LINE_HEIGHT, { size: TEXT_SIZE, color: color ?? theme.label }));
  if (focused) {
    const last = lines[lines.length - 1];
    const x = rect.x + (text === '' ? 0 : ctx.measureText(last).width) + 1;
    const y = rect.y + (lines.length - 1) * LINE_HEIGHT + 1;
    ctx.fillStyle = theme.tint;
    ctx.fillRect(x, y, 2, LINE_HEIGHT - 2);
  }
}

/**
 * One line of editable text clipped to `rect`; when the text is wider than the field, it is shifted left so its
 * end (and the caret) stays in view, as UITextField does.
 */
export function drawSingleLineText(p: Paint, rect: Rect, text: string, placeholder: string, focused: boolean): void {
  const { ctx } = p;
  const overflow = text === '' ? 0 : Math.max(0, measure(text, TEXT_SIZE) + 4 - rect.width);
  ctx.save();
  ctx.beginPath();
  ctx.rect(rect.x - 2, rect.y - 4, rect.width + 4, rect.height + 8);
  ctx.clip();
  drawEditableText(p, { ...rect, x: rect.x - overflow, width: 100_000 }, text, placeholder, focused);
  ctx.restore();
}

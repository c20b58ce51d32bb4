import type { SKRSContext2D } from '@napi-rs/canvas';

/** Line glyphs drawn like SF Symbols (about 2.2 pt strokes), for unlabeled icon buttons and app icons. */
export type GlyphName = 'gear' | 'magnifier' | 'plus' | 'trash' | 'share' | 'back' | 'close' | 'heart' | 'location' | 'compass' | 'delete';


/** Draws `name` centred on (cx, cy) in a box of `size` points. */
export function drawGlyph(ctx: SKRSContext2D, name: GlyphName, cx: number, cy: number, size: number, color: string, lineWidth = 2.2): void {
  const h = size / 2;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = lineWidth;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  switch (name) {
    case 'gear': {
      const teeth = 8;
      const outer = h * 0.95;
      const inner = h * 0.72;
      for (let i = 0; i < teeth * 2; i++) {
        const a0 = (i * Math.PI) / teeth;
        const a1 = ((i + 1) * Math.PI) / teeth;
        const r = i % 2 === 0 ? outer : inner;
        if (i === 0) ctx.moveTo(cx + r * Math.cos(a0), cy + r * Math.sin(a0));
        ctx.lineTo(cx + r * Math.cos(a0), cy + r * Math.sin(a0));
        ctx.lineTo(cx + r * Math.cos(a1), cy + r * Math.sin(a1));
      }
      ctx.closePath();
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(cx, cy, h * 0.3, 0, Math.PI * 2);
      ctx.stroke();
      break;
    }
    case 'magnifier': {
      const r = h * 0.58;
      const ox = cx - h * 0.18;
      const oy = cy - h * 0.18;
      ctx.arc(ox, oy, r, 0, Math.PI * 2);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(ox + r * Math.SQRT1_2, oy + r * Math.SQRT1_2);
      ctx.lineTo(cx + h * 0.9, cy + h * 0.9);
      ctx.stroke();
      break;
    }
    case 'plus':
      ctx.moveTo(cx - h * 0.85, cy);
      ctx.lineTo(cx + h * 0.85, cy);
      ctx.moveTo(cx, cy - h * 0.85);
      ctx.lineTo(cx, cy + h * 0.85);
      ctx.stroke();
      break;
    case 'close':
      ctx.moveTo(cx - h * 0.65, cy - h * 0.65);
      ctx.lineTo(cx + h * 0.65, cy + h * 0.65);
      ctx.moveTo(cx + h * 0.65, cy - h * 0.65);
      ctx.lineTo(cx - h * 0.65, cy + h * 0.65);
      ctx.stroke();
      break;
    case 'back':
      ctx.moveTo(cx + h * 0.35, cy - h * 0.8);
      ctx.lineTo(cx - h * 0.45, cy);
      ctx.lineTo(cx + h * 0.35, cy + h * 0.8);
      ctx.stroke();
      break;
    case 'trash': {
      // Lid, handle, can with three ribs.
      ctx.moveTo(cx - h * 0.85, cy - h * 0.55);
      ctx.lineTo(cx + h * 0.85, cy - h * 0.55);
      ctx.moveTo(cx - h * 0.3, cy - h * 0.55);
      ctx.lineTo(cx - h * 0.3, cy - h * 0.85);
      ctx.lineTo(cx + h * 0.3, cy - h * 0.85);
      ctx.lineTo(cx + h * 0.3, cy - h * 0.55);
      ctx.moveTo(cx - h * 0.65, cy - h * 0.55);
      ctx.lineTo(cx - h * 0.55, cy + h * 0.9);
      ctx.lineTo(cx + h * 0.55, cy + h * 0.9);
      ctx.lineTo(cx + h * 0.65, cy - h * 0.55);
      ctx.moveTo(cx - h * 0.22, cy - h * 0.25);
      ctx.lineTo(cx - h * 0.2, cy + h * 0.6);
      ctx.moveTo(cx + h * 0.22, cy - h * 0.25);
      ctx.lineTo(cx + h * 0.2, cy + h * 0.6);
      ctx.stroke();
      break;
    }
    case 'share':
      // Open box with an arrow leaving it upwards.
      ctx.moveTo(cx - h * 0.3, cy - h * 0.2);
      ctx.lineTo(cx - h * 0.7, cy - h * 0.2);
      ctx.lineTo(cx - h * 0.7, cy + h * 0.9);
      ctx.lineTo(cx + h * 0.7, cy + h * 0.9);
      ctx.lineTo(cx + h * 0.7, cy - h * 0.2);
      ctx.lineTo(cx + h * 0.3, cy - h * 0.2);
      ctx.moveTo(cx, cy + h * 0.35);
      ctx.lineTo(cx, cy - h * 0.95);
      ctx.moveTo(cx - h * 0.35, cy - h * 0.6);
      ctx.lineTo(cx, cy - h * 0.95);
      ctx.lineTo(cx + h * 0.35, cy - h * 0.6);
      ctx.stroke();
      break;
    case 'heart':
      ctx.moveTo(cx, cy + h * 0.8);
      ctx.bezierCurveTo(cx - h * 1.2, cy - h * 0.1, cx - h * 0.6, cy - h * 1.0, cx, cy - h * 0.4);
      ctx.bezierCurveTo(cx + h * 0.6, cy - h * 1.0, cx + h * 1.2, cy - h * 0.1, cx, cy + h * 0.8);
      ctx.stroke();
      break;
    case 'compass':
      ctx.arc(cx, cy, h * 0.9, 0, Math.PI * 2);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(cx + h * 0.5, cy - h * 0.5);
      ctx.lineTo(cx + h * 0.12, cy + h * 0.12);
      ctx.lineTo(cx - h * 0.5, cy + h * 0.5);
      ctx.lineTo(cx - h * 0.12, cy - h * 0.12);
      ctx.closePath();
      ctx.fill();
      break;
    case 'delete':
      // The backspace key: a tag pointing left with an x inside.
      ctx.moveTo(cx - h * 0.95, cy);
      ctx.lineTo(cx - h * 0.45, cy - h * 0.65);
      ctx.lineTo(cx + h * 0.95, cy - h * 0.65);
      ctx.lineTo(cx + h * 0.95, cy + h * 0.65);
      ctx.lineTo(cx - h * 0.45, cy + h * 0.65);
      ctx.closePath();
      ctx.moveTo(cx - h * 0.05, cy - h * 0.3);
      ctx.lineTo(cx + h * 0.55, cy + h * 0.3);
      ctx.moveTo(cx + h * 0.55, cy - h * 0.3);
      ctx.lineTo(cx - h * 0.05, cy + h * 0.3);
      ctx.stroke();
      break;
    case 'location':
      ctx.moveTo(cx + h * 0.85, cy - h * 0.85);
      ctx.lineTo(cx - h * 0.85, cy - h * 0.05);
      ctx.lineTo(cx - h * 0.05, cy + h * 0.05);
      ctx.lineTo(cx + h * 0.05, cy + h * 0.85);
      ctx.closePath();
      ctx.stroke();
      break;
  }
  ctx.restore();
}

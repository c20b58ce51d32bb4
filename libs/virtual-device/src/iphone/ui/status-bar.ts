import type { SKRSContext2D } from '@napi-rs/canvas';
import type { SystemState } from '../apps/app';
import { drawText, fillRoundRect } from '../../engine/render/paint';

export const STATUS_BAR_TIME = '9:41';

export interface StatusBarLook {
  width: number;
  height: number;
  color: string;
  batteryLevel: number;
  /** Notched phones centre the clock in the left "ear"; older ones centre it on the screen. */
  notched: boolean;
  showTime: boolean;
  system: SystemState;
}

/** Draws the status bar: clock, signal, Wi-Fi or airplane, battery. Never part of an app's tree (as with WDA). */
export function drawStatusBar(ctx: SKRSContext2D, s: StatusBarLook): void {
  const cy = s.notched ? s.height / 2 + 4 : s.height / 2;
  const size = s.notched ? 17 : 12;
  if (s.showTime) {
    if (s.notched) drawText(ctx, STATUS_BAR_TIME, 66, cy, { size, color: s.color, weight: 'bold', align: 'center' });
    else drawText(ctx, STATUS_BAR_TIME, s.width / 2, cy, { size, color: s.color, weight: 'bold', align: 'center' });
  }
  const k = s.notched ? 1 : 0.75;
  let x = s.width - (s.notched ? 30 : 8) - 25 * k;
  // Battery: outline, level fill, cap.
  ctx.strokeStyle = s.color;
  ctx.globalAlpha = 0.4;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.roundRect(x, cy - 6 * k, 25 * k, 12 * k, 3.5 * k);
  ctx.stroke();
  fillRoundRect(ctx, { x: x + 25 * k + 1, y: cy - 2 * k, width: 1.5, height: 4 * k }, 1, s.color);
  ctx.globalAlpha = 1;
  fillRoundRect(ctx, { x: x + 2, y: cy - 6 * k + 2, width: (25 * k - 4) * s.batteryLevel, height: 12 * k - 4 }, 2, s.color);
  x -= 8 + 17 * k;
  if (s.system.airplaneMode) {
    drawText(ctx, '\u2708', x + 8 * k, cy, { size: 15 * k, color: s.color, align: 'center' });
  } else {
    if (s.system.wifi) {
      ctx.strokeStyle = s.color;
      ctx.lineWidth = 2 * k;
      ctx.lineCap = 'round';
      for (let i = 0; i < 3; i++) {
        ctx.beginPath();
        ctx.arc(x + 8 * k, cy + 5 * k, (3 + i * 4) * k, -Math.PI * 0.75, -Math.PI * 0.25);
        ctx.stroke();
      }
      x -= 6 + 17 * k;
    }
    for (let i = 0; i < 4; i++) {
      const h = (4 + i * 2.5) * k;
      fillRoundRect(ctx, { x: x + i * 4.5 * k, y: cy + 5 * k - h, width: 3 * k, height: h }, 1, s.color);
    }
  }
}

/** The home indicator bar of phones without a home button. */
export function drawHomeIndicator(ctx: SKRSContext2D, width: number, height: number, color: string): void {
  fillRoundRect(ctx, { x: width / 2 - 67, y: height - 13, width: 134, height: 5 }, 2.5, color);
}

import type { SKRSContext2D } from '@napi-rs/canvas';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';

export const SYSTEMUI = 'com.android.systemui';
/** The status bar clock: fixed, so the same state draws the same pixels. */
export const STATUS_BAR_TIME = '12:00';
export const BATTERY_PERCENT = 85;
export const NAV_BAR_HEIGHT = 48;

/** The status bar (SystemUI): clock at the left; Wi-Fi or airplane, signal and battery at the right. */
export function statusBar(env: AndroidEnv, color: string): AndroidView {
  const rect = { x: 0, y: 0, width: env.screen.width, height: env.top };
  const { system } = env;
  return {
    uid: 'systemui/status_bar',
    type: 'Other',
    pkg: SYSTEMUI,
    resourceId: `${SYSTEMUI}:id/status_bar`,
    rect,
    draw: ({ ctx }) => {
      const cy = rect.height / 2 + 2;
      drawText(ctx, STATUS_BAR_TIME, 20, cy, { size: 14, color, weight: 'bold' });
      let x = rect.width - 20;
      // Battery: a vertical pill, filled to the level.
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.2;
      ctx.beginPath();
      ctx.roundRect(x - 8, cy - 8, 8, 15, 2);
      ctx.stroke();
      const level = (15 - 3) * (BATTERY_PERCENT / 100);
      fillRect(ctx, { x: x - 6.5, y: cy + 5.5 - level, width: 5, height: level }, color);
      fillRect(ctx, { x: x - 6, y: cy - 10, width: 4, height: 2 }, color);
      x -= 22;
      if (system.airplaneMode) {
        drawText(ctx, '\u2708', x - 6, cy, { size: 14, color, align: 'center' });
        x -= 22;
      } else {
        drawSignal(ctx, x - 14, cy, color);
        x -= 22;
      }
      if (system.wifi) {
        drawWifi(ctx, x - 8, cy + 5, color);
        x -= 22;
      }
      if (system.bluetooth) drawText(ctx, 'B', x - 6, cy, { size: 12, color, weight: 'bold', align: 'center' });
    },
  };
}

function drawSignal(ctx: SKRSContext2D, x: number, cy: number, color: string): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(x, cy + 7);
  ctx.lineTo(x + 14, cy + 7);
  ctx.lineTo(x + 14, cy - 7);
  ctx.closePath();
  ctx.fill();
}

export function drawWifi(ctx: SKRSContext2D, cx: number, baseY: number, color: string, size = 1): void {
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(cx, baseY);
  ctx.arc(cx, baseY, 13 * size, -Math.PI * 0.75, -Math.PI * 0.25);
  ctx.closePath();
  ctx.fill();
}

export type NavButton = 'back' | 'home' | 'recent_apps';

/**
 * The 3-button navigation bar (SystemUI): Back, Home, Overview — along the bottom, or (landscape, where the
 * apps' width stops short of the screen's) down the right edge with Back at the bottom.
 */
export function navigationBar(env: AndroidEnv, press: (button: NavButton) => void): AndroidView {
  const side = env.screen.width > env.width;
  const rect = side ? { x: env.width, y: env.top, width: env.screen.width - env.width, height: env.height - env.top } : { x: 0, y: env.height - env.bottom, width: env.width, height: env.bottom };
  const color = env.theme.label;
  const along = side ? rect.y + rect.height / 2 : rect.width / 2;
  const order: { id: NavButton; desc: string; offset: number }[] = [
    { id: 'back', desc: 'Back', offset: side ? 110 : -110 },
    { id: 'home', desc: 'Home', offset: 0 },
    { id: 'recent_apps', desc: 'Overview', offset: side ? -110 : 110 },
  ];
  const buttons = order.map((b) => ({ ...b, cx: side ? rect.x + rect.width / 2 : along + b.offset, cy: side ? along + b.offset : rect.y + rect.height / 2 }));
  return {
    uid: 'systemui/navigation_bar',
    type: 'Other',
    pkg: SYSTEMUI,
    resourceId: `${SYSTEMUI}:id/navigation_bar_frame`,
    rect,
    opaque: true,
    draw: ({ ctx }) => fillRect(ctx, rect, env.theme.background),
    children: buttons.map((b) => ({
      uid: `systemui/nav/${b.id}`,
      type: 'Button',
      className: 'android.widget.ImageView',
      resourceId: `${SYSTEMUI}:id/${b.id}`,
      contentDesc: b.desc,
      label: b.desc,
      rect: side ? { x: rect.x, y: b.cy - 36, width: rect.width, height: 72 } : { x: b.cx - 36, y: rect.y, width: 72, height: rect.height },
      onTap: () => press(b.id),
      draw: ({ ctx }) => drawNavGlyph(ctx, b.id, Math.round(b.cx), Math.round(b.cy), color),
    })),
  };
}

function drawNavGlyph(ctx: SKRSContext2D, id: NavButton, cx: number, cy: number, color: string): void {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  ctx.beginPath();
  if (id === 'back') {
    ctx.moveTo(cx - 8, cy);
    ctx.lineTo(cx + 7, cy - 9);
    ctx.lineTo(cx + 7, cy + 9);
    ctx.closePath();
    ctx.stroke();
  } else if (id === 'home') {
    ctx.arc(cx, cy, 9, 0, Math.PI * 2);
    ctx.stroke();
  } else {
    ctx.roundRect(cx - 8, cy - 8, 16, 16, 2);
    ctx.stroke();
  }
  ctx.restore();
}

/** The screen while the display is off: black, nothing to touch. */
export function screenOff(env: AndroidEnv): AndroidView {
  return {
    uid: 'display/off',
    type: 'Window',
    pkg: SYSTEMUI,
    rect: env.screen,
    opaque: true,
    draw: ({ ctx }) => fillRoundRect(ctx, env.screen, 0, '#000000'),
  };
}

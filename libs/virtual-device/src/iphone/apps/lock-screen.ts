import type { Env } from './app';
import { drawText } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import type { View } from '../../engine/view';
import { drawWallpaper } from './springboard';

export const LOCK_TIME = '9:41';
export const LOCK_DATE = 'Monday, June 10';

/** The lock screen: big clock, date, and an upward swipe (or unlock) to open. */
export function lockScreenWindows(env: Env, unlock: () => void): View[] {
  const cx = env.width / 2;
  const dateY = env.top + 40;
  const timeY = env.top + 110;
  const hintY = env.height - env.bottom - 30;
  const text = (uid: string, s: string, cy: number, size: number, bold: boolean): View => {
    const w = Math.ceil(measure(s, size, bold ? 'bold' : 'regular'));
    return {
      uid,
      type: 'StaticText',
      label: s,
      value: s,
      rect: { x: Math.round(cx - w / 2), y: Math.round(cy - size * 0.6), width: w, height: Math.round(size * 1.2) },
      draw: ({ ctx }) => drawText(ctx, s, cx, cy, { size, color: '#ffffff', weight: bold ? 'bold' : 'regular', align: 'center' }),
    };
  };
  return [
    {
      uid: 'lockscreen/window',
      type: 'Window',
      rect: env.screen,
      draw: ({ ctx }) => drawWallpaper(ctx, env),
      onDrag: (dx, dy) => {
        if (dy < -80 && Math.abs(dy) > Math.abs(dx)) unlock();
      },
      children: [
        text('lockscreen/date', LOCK_DATE, dateY, 22, false),
        text('lockscreen/time', LOCK_TIME, timeY, 96, true),
        text('lockscreen/hint', 'Swipe up to open', hintY, 15, false),
      ],
    },
  ];
}

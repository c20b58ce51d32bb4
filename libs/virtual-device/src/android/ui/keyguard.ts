import { fillRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';
import { STATUS_BAR_TIME, SYSTEMUI } from './system-bars';
import { textView } from './widgets';

/** The lock screen (a swipe-up keyguard, no PIN): big clock, date, and how to open; a swipe up dismisses it. */
export function keyguardWindow(env: AndroidEnv, unlock: () => void): AndroidView {
  const bg = env.theme.appearance === 'dark' ? '#0b0f19' : '#1d2a3a';
  return {
    uid: 'keyguard',
    type: 'Window',
    pkg: SYSTEMUI,
    resourceId: `${SYSTEMUI}:id/keyguard_root_view`,
    rect: env.screen,
    opaque: true,
    onDrag: (_dx, dy) => {
      if (dy < -100) unlock();
    },
    draw: ({ ctx }) => fillRect(ctx, env.screen, bg),
    children: [
      textView(env, 'keyguard/clock', STATUS_BAR_TIME, { x: 0, y: env.top + 80, width: env.width, height: 96 }, { size: 80, color: '#ffffff', align: 'center', resourceId: `${SYSTEMUI}:id/lockscreen_clock_view` }),
      textView(env, 'keyguard/date', 'Sun, Dec 6', { x: 0, y: env.top + 184, width: env.width, height: 28 }, { size: 18, color: '#ffffff', align: 'center', resourceId: `${SYSTEMUI}:id/date_view` }),
      textView(env, 'keyguard/hint', 'Swipe up to open', { x: 0, y: env.height - env.bottom - 56, width: env.width, height: 24 }, { size: 14, color: '#dddddd', align: 'center', resourceId: `${SYSTEMUI}:id/keyguard_indication_text` }),
    ],
  };
}

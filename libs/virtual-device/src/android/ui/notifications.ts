import { fillRoundRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';
import type { PostedNotification } from '../device/notifications';
import { SYSTEMUI } from './system-bars';
import { textView } from './widgets';

const ROW_H = 76;

/** One notification as SystemUI draws it: app name, title, text; a tap runs its content intent. */
function notificationRow(env: AndroidEnv, uid: string, n: PostedNotification, appName: string, y: number, open: () => void): AndroidView {
  const { theme } = env;
  const r = { x: 12, y, width: env.width - 24, height: ROW_H };
  const texts = [
    textView(env, `${uid}/app`, appName, { x: r.x + 16, y: r.y + 8, width: r.width - 32, height: 18 }, { size: 12, color: theme.secondaryLabel, resourceId: 'android:id/app_name_text' }),
    ...(n.title ? [textView(env, `${uid}/title`, n.title, { x: r.x + 16, y: r.y + 28, width: r.width - 32, height: 20 }, { size: 15, weight: 'bold', resourceId: 'android:id/title' })] : []),
    textView(env, `${uid}/text`, n.text, { x: r.x + 16, y: r.y + (n.title ? 50 : 30), width: r.width - 32, height: 20 }, { size: 14, resourceId: 'android:id/text' }),
  ];
  return {
    uid,
    type: 'Other',
    className: 'android.widget.FrameLayout',
    resourceId: `${SYSTEMUI}:id/expandableNotificationRow`,
    contentDesc: `${appName} notification: ${n.title ? `${n.title}, ` : ''}${n.text}`,
    focusable: true,
    rect: r,
    onTap: open,
    draw: ({ ctx }) => fillRoundRect(ctx, r, 20, theme.cell),
    children: texts,
  };
}

/** The notifications in the shade, newest first, from `top`; returns the views and where they end. */
export function shadeNotifications(env: AndroidEnv, list: readonly PostedNotification[], appName: (n: PostedNotification) => string, top: number, open: (key: string) => void): { views: AndroidView[]; bottom: number } {
  if (list.length === 0) {
    return { views: [textView(env, 'shade/empty', 'No notifications', { x: 0, y: top, width: env.width, height: 40 }, { size: 15, color: env.theme.secondaryLabel, align: 'center' })], bottom: top + 40 };
  }
  const views = list.map((n, i) => notificationRow(env, `shade/notification/${n.key}`, n, appName(n), top + i * (ROW_H + 8), () => open(n.key)));
  return { views, bottom: top + list.length * (ROW_H + 8) };
}

/** A heads-up notification: the newest one, floating over the app at the top until it is tapped or something else is. */
export function headsUpWindow(env: AndroidEnv, n: PostedNotification, appName: string, open: () => void): AndroidView {
  const row = notificationRow(env, 'headsup', n, appName, env.top + 8, open);
  return {
    uid: 'headsup/window',
    type: 'Window',
    pkg: SYSTEMUI,
    rect: { x: 0, y: 0, width: env.width, height: env.top + 8 + ROW_H + 8 },
    children: [row],
  };
}

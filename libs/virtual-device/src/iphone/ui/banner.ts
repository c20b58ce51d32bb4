import type { Env, PhoneNotification } from '../apps/app';
import { drawText, fillRoundRect } from '../../engine/render/paint';
import type { View } from '../../engine/view';

const BANNER_HEIGHT = 76;

/** A notification banner at the top of the screen (over any app): app name, title and body; a tap opens it. */
export function bannerWindow(env: Env, notification: PhoneNotification, appName: string, open: () => void): View {
  const rect = { x: 8, y: env.top + 4, width: env.width - 16, height: BANNER_HEIGHT };
  const { theme } = env;
  const line = (uid: string, text: string, y: number, bold: boolean): View => ({
    uid,
    type: 'StaticText',
    label: text,
    value: text,
    rect: { x: rect.x + 14, y: y - 10, width: rect.width - 28, height: 20 },
    draw: ({ ctx }) => drawText(ctx, text.length > 60 ? `${text.slice(0, 59)}…` : text, rect.x + 14, y, { size: bold ? 15 : 14, color: bold ? theme.label : theme.secondaryLabel, weight: bold ? 'bold' : 'regular' }),
  });
  return {
    uid: 'springboard/banner/window',
    type: 'Window',
    rect: env.screen,
    children: [
      {
        uid: 'springboard/banner',
        type: 'Button',
        identifier: 'NotificationShortLookView',
        label: `${appName}, ${notification.title}, ${notification.body}`,
        rect,
        opaque: true,
        onTap: open,
        draw: ({ ctx }) => fillRoundRect(ctx, rect, 18, theme.cell),
        children: [
          line('springboard/banner/app', appName.toUpperCase(), rect.y + 16, false),
          line('springboard/banner/title', notification.title, rect.y + 38, true),
          line('springboard/banner/body', notification.body, rect.y + 58, false),
        ],
      },
    ],
  };
}

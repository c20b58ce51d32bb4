import type { Env, SystemAlert } from '../apps/app';
import { drawText, fillRect, fillRoundRect, hline, wrapText } from '../../engine/render/paint';
import { measureContext } from '../../engine/render/measure';
import type { View } from '../../engine/view';

const WIDTH = 270;
const BUTTON_HEIGHT = 44;
const TITLE_SIZE = 17;
const MESSAGE_SIZE = 13;

/** A UIAlertController over a dimmed screen: title, message, buttons (side by side when two, else stacked). */
export function alertWindow(env: Env, alert: SystemAlert, choose: (button: string) => void): View {
  const { theme } = env;
  const ctx = measureContext();
  const titleLines = wrapText(ctx, alert.title, WIDTH - 32, TITLE_SIZE, 'bold');
  const messageLines = wrapText(ctx, alert.message, WIDTH - 32, MESSAGE_SIZE);
  const titleH = titleLines.length * 22;
  const messageH = messageLines.length * 17;
  const textH = 20 + titleH + 4 + messageH + 20;
  const stacked = alert.buttons.length !== 2;
  const buttonsH = stacked ? alert.buttons.length * BUTTON_HEIGHT : BUTTON_HEIGHT;
  const x = Math.round((env.width - WIDTH) / 2);
  const y = Math.round((env.height - textH - buttonsH) / 2);
  const box = { x, y, width: WIDTH, height: textH + buttonsH };
  const titleTop = y + 20;
  const messageTop = titleTop + titleH + 4;
  const buttons: View[] = alert.buttons.map((label, i) => {
    const r = stacked
      ? { x, y: y + textH + i * BUTTON_HEIGHT, width: WIDTH, height: BUTTON_HEIGHT }
      : { x: x + (i * WIDTH) / 2, y: y + textH, width: WIDTH / 2, height: BUTTON_HEIGHT };
    const bold = label === alert.acceptButton;
    return {
      uid: `alert/button/${label}`,
      type: 'Button',
      label,
      identifier: label,
      rect: r,
      onTap: () => choose(label),
      draw: ({ ctx: c }) => {
        hline(c, r.x, r.x + r.width, r.y, theme.separator);
        if (!stacked && i > 0) fillRect(c, { x: r.x - 0.25, y: r.y, width: 0.5, height: r.height }, theme.separator);
        drawText(c, label, r.x + r.width / 2, r.y + r.height / 2, { size: 17, color: theme.tint, weight: bold ? 'bold' : 'regular', align: 'center' });
      },
    };
  });
  const title: View = {
    uid: 'alert/title',
    type: 'StaticText',
    label: alert.title,
    value: alert.title,
    rect: { x: x + 16, y: titleTop, width: WIDTH - 32, height: titleH },
    draw: ({ ctx: c }) =>
      titleLines.forEach((line, i) => drawText(c, line, x + WIDTH / 2, titleTop + 11 + i * 22, { size: TITLE_SIZE, color: theme.label, weight: 'bold', align: 'center' })),
  };
  const message: View = {
    uid: 'alert/message',
    type: 'StaticText',
    label: alert.message,
    value: alert.message,
    rect: { x: x + 16, y: messageTop, width: WIDTH - 32, height: messageH },
    draw: ({ ctx: c }) =>
      messageLines.forEach((line, i) => drawText(c, line, x + WIDTH / 2, messageTop + 8.5 + i * 17, { size: MESSAGE_SIZE, color: theme.label, align: 'center' })),
  };
  return {
    uid: 'alert/window',
    type: 'Window',
    rect: env.screen,
    opaque: true,
    draw: ({ ctx: c }) => fillRect(c, env.screen, theme.dim),
    children: [
      {
        uid: 'alert',
        type: 'Alert',
        label: alert.title,
        identifier: alert.title,
        rect: box,
        opaque: true,
        draw: ({ ctx: c }) => fillRoundRect(c, box, 14, theme.alertBackground),
        children: [title, message, ...buttons],
      },
    ],
  };
}

import { drawText, fillRect, fillRoundRect, wrapText } from '../../engine/render/paint';
import { measureContext } from '../../engine/render/measure';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';
import type { PermissionGroup } from '../device/runtime-permissions';

/** The package that shows runtime-permission dialogs on a Pixel, and its resource package. */
export const PERMISSION_CONTROLLER = 'com.google.android.permissioncontroller';
const RES = 'com.android.permissioncontroller';
export const GRANT_PERMISSIONS_ACTIVITY = 'com.android.permissioncontroller.permission.ui.GrantPermissionsActivity';

export type PermissionAnswer = 'foreground' | 'one_time' | 'deny';

type DialogButton = { answer: PermissionAnswer; label: string; id: string };

/** Location, camera and microphone offer a grant for this time only (Android 11+); the others allow or deny. */
export const PERMISSION_BUTTONS: readonly DialogButton[] = [
  { answer: 'foreground', label: 'While using the app', id: 'permission_allow_foreground_only_button' },
  { answer: 'one_time', label: 'Only this time', id: 'permission_allow_one_time_button' },
  { answer: 'deny', label: "Don\u2019t allow", id: 'permission_deny_button' },
];
const ALLOW_OR_DENY: readonly DialogButton[] = [
  { answer: 'foreground', label: 'Allow', id: 'permission_allow_button' },
  { answer: 'deny', label: "Don\u2019t allow", id: 'permission_deny_button' },
];

/** What the dialog asks, per group (PermissionController's strings). */
const QUESTIONS: Record<PermissionGroup, string> = {
  location: 'access this device\u2019s location',
  location_background: 'access this device\u2019s location all the time',
  camera: 'take pictures and record video',
  microphone: 'record audio',
  contacts: 'access your contacts',
  calendar: 'access your calendar',
  photos: 'access photos and videos on this device',
  notifications: 'send you notifications',
  motion: 'access your physical activity',
};

/** Android 14's runtime-permission dialog: icon, message, stacked buttons. */
export function permissionDialog(env: AndroidEnv, appLabel: string, group: PermissionGroup, answer: (a: PermissionAnswer) => void): AndroidView {
  const { theme } = env;
  const width = Math.min(env.width - 48, 360);
  const x = (env.width - width) / 2;
  const message = `Allow ${appLabel} to ${QUESTIONS[group]}?`;
  const choices = group === 'location' || group === 'camera' || group === 'microphone' ? PERMISSION_BUTTONS : ALLOW_OR_DENY;
  const lines = wrapText(measureContext(), message, width - 48, 22);
  const buttonH = 48;
  const textTop = 72;
  const textH = lines.length * 30;
  const height = textTop + textH + 24 + choices.length * (buttonH + 8) + 16;
  const y = (env.height - height) / 2;
  const box = { x, y, width, height };
  const bg = theme.appearance === 'dark' ? '#2a2b31' : '#f1f0f7';
  const buttons: AndroidView[] = choices.map((b, i) => {
    const r = { x: x + 24, y: y + textTop + textH + 24 + i * (buttonH + 8), width: width - 48, height: buttonH };
    return {
      uid: `permission/${b.id}`,
      type: 'Button',
      label: b.label,
      text: b.label,
      resourceId: `${RES}:id/${b.id}`,
      focusable: true,
      rect: r,
      onTap: () => answer(b.answer),
      draw: ({ ctx }) => {
        fillRoundRect(ctx, r, buttonH / 2, theme.appearance === 'dark' ? '#3a3b42' : '#e0e2ec');
        drawText(ctx, b.label, r.x + r.width / 2, r.y + r.height / 2, { size: 15, color: theme.label, weight: 'bold', align: 'center' });
      },
    };
  });
  const messageView: AndroidView = {
    uid: 'permission/message',
    type: 'StaticText',
    label: message,
    text: message,
    resourceId: `${RES}:id/permission_message`,
    rect: { x: x + 24, y: y + textTop, width: width - 48, height: textH },
    draw: ({ ctx }) => lines.forEach((line, i) => drawText(ctx, line, x + width / 2, y + textTop + 15 + i * 30, { size: 22, color: theme.label, align: 'center' })),
  };
  const icon: AndroidView = {
    uid: 'permission/icon',
    type: 'Image',
    resourceId: `${RES}:id/permission_icon`,
    rect: { x: x + width / 2 - 16, y: y + 24, width: 32, height: 32 },
    draw: ({ ctx }) => {
      ctx.fillStyle = theme.tint;
      ctx.beginPath();
      ctx.arc(x + width / 2, y + 36, 9, Math.PI, 0);
      ctx.lineTo(x + width / 2, y + 54);
      ctx.closePath();
      ctx.fill();
    },
  };
  return {
    uid: 'permission/window',
    type: 'Window',
    pkg: PERMISSION_CONTROLLER,
    rect: env.screen,
    opaque: true,
    draw: ({ ctx }) => fillRect(ctx, env.screen, theme.dim),
    children: [
      {
        uid: 'permission/dialog',
        type: 'Other',
        className: 'android.widget.LinearLayout',
        resourceId: `${RES}:id/grant_dialog`,
        rect: box,
        opaque: true,
        draw: ({ ctx }) => fillRoundRect(ctx, box, 28, bg),
        children: [icon, messageView, ...buttons],
      },
    ],
  };
}

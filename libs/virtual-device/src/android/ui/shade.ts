import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';
import { drawWifi, SYSTEMUI } from './system-bars';
import { textView } from './widgets';
import type { PostedNotification } from '../device/notifications';
import { shadeNotifications } from './notifications';

export interface Tile {
  id: string;
  label: string;
  on: boolean;
  /** The second line: "AndroidWifi", "Off", "On"… */
  state: string;
  toggle(): void;
}

/** The quick-settings tiles in the order the shade shows them. */
export function quickSettingsTiles(env: AndroidEnv, change: (apply: () => void) => void): Tile[] {
  const s = env.system;
  return [
    { id: 'internet', label: 'Internet', on: s.wifi, state: s.wifi ? WIFI_NETWORK : s.airplaneMode ? 'Airplane mode' : 'Off', toggle: () => change(() => (s.wifi = !s.wifi)) },
    { id: 'bt', label: 'Bluetooth', on: s.bluetooth, state: s.bluetooth ? 'On' : 'Off', toggle: () => change(() => (s.bluetooth = !s.bluetooth)) },
    { id: 'airplane', label: 'Airplane mode', on: s.airplaneMode, state: s.airplaneMode ? 'On' : 'Off', toggle: () => change(() => (s.airplaneMode = !s.airplaneMode)) },
    { id: 'dark', label: 'Dark theme', on: s.dark, state: s.dark ? 'On' : 'Off', toggle: () => change(() => (s.dark = !s.dark)) },
  ];
}

/** The Wi-Fi network the phone is connected to while Wi-Fi is on (the emulator's own name). */
export const WIFI_NETWORK = 'AndroidWifi';

/** What the shade lists under the tiles. */
export interface ShadeNotifications {
  list: readonly PostedNotification[];
  appName(n: PostedNotification): string;
  open(key: string): void;
}

/** The notification shade pulled down from the top: date, quick-settings tiles, notifications. */
export function notificationShade(env: AndroidEnv, tiles: Tile[], close: () => void, notifications: ShadeNotifications): AndroidView {
  const { theme } = env;
  const panelBg = theme.appearance === 'dark' ? '#1b1b1f' : '#f0f0f7';
  const tileW = (env.width - 16 * 2 - 8) / 2;
  const tileH = 64;
  const top = env.top + 56;
  const children: AndroidView[] = [textView(env, 'shade/date', 'Sun, Dec 6', { x: 24, y: env.top + 8, width: 120, height: 32 }, { size: 16, resourceId: `${SYSTEMUI}:id/date` })];
  tiles.forEach((t, i) => {
    const r = { x: 16 + (i % 2) * (tileW + 8), y: top + Math.floor(i / 2) * (tileH + 8), width: tileW, height: tileH };
    const fg = t.on ? (theme.appearance === 'dark' ? '#11275a' : '#ffffff') : theme.label;
    children.push({
      uid: `shade/tile/${t.id}`,
      type: 'Switch',
      className: 'android.widget.Switch',
      contentDesc: t.label,
      label: t.label,
      text: '',
      checkable: true,
      checked: t.on,
      focusable: true,
      rect: r,
      onTap: () => t.toggle(),
      draw: ({ ctx }) => {
        fillRoundRect(ctx, r, 20, t.on ? theme.tint : theme.appearance === 'dark' ? '#303036' : '#dfe2eb');
        if (t.id === 'internet') drawWifi(ctx, r.x + 28, r.y + r.height / 2 + 6, fg, 0.9);
        else drawText(ctx, t.label[0], r.x + 28, r.y + r.height / 2, { size: 16, color: fg, weight: 'bold', align: 'center' });
        drawText(ctx, t.label, r.x + 52, r.y + 22, { size: 15, color: fg, weight: 'bold' });
        drawText(ctx, t.state, r.x + 52, r.y + 44, { size: 13, color: fg });
      },
    });
  });
  const notificationsTop = top + 2 * (tileH + 8) + 16;
  const rows = shadeNotifications(env, notifications.list, notifications.appName, notificationsTop, notifications.open);
  children.push(...rows.views);
  const panel = { x: 0, y: 0, width: env.width, height: rows.bottom + 32 };
  return {
    uid: 'shade',
    type: 'Window',
    pkg: SYSTEMUI,
    rect: env.screen,
    opaque: true,
    // A tap below the panel closes it.
    onTap: close,
    draw: ({ ctx }) => {
      fillRect(ctx, env.screen, theme.dim);
      fillRoundRect(ctx, panel, 24, panelBg);
    },
    children: [
      {
        uid: 'shade/panel',
        type: 'Other',
        resourceId: `${SYSTEMUI}:id/notification_panel`,
        rect: panel,
        opaque: true,
        children,
      },
    ],
  };
}

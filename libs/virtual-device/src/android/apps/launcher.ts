import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import { ScrollState } from '../../engine/ui/scroll';
import type { AndroidView } from '../android-view';
import type { AndroidAppDefinition, AndroidEnv } from './app';
import { textView } from '../ui/widgets';

export const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher';
export const LAUNCHER_ACTIVITY = 'com.google.android.apps.nexuslauncher.NexusLauncherActivity';

/** The home screen's icons (by package) and the dock's. */
export const HOME_GRID = [
  'com.google.android.deskclock',
  'com.google.android.calculator',
  'com.google.android.contacts',
  'com.google.android.apps.photos',
  'com.google.android.apps.maps',
  'com.android.settings',
];
export const DOCK = ['com.google.android.dialer', 'com.google.android.apps.messaging', 'com.android.chrome', 'com.google.android.GoogleCamera'];

const ICON = 56;
const CELL_H = 96;

/** The Pixel launcher: home screen (at-a-glance, icon grid, dock, search bar) and the app drawer. */
export class Launcher {
  drawerOpen = false;
  private readonly drawerScroll = new ScrollState();

  window(env: AndroidEnv, apps: readonly AndroidAppDefinition[], launch: (pkg: string) => void, openDrawer: () => void): AndroidView {
    const { theme } = env;
    const byPkg = new Map(apps.map((a) => [a.pkg, a]));
    const wallpaper = theme.appearance === 'dark' ? '#1d2a3a' : '#b9cbe8';
    const children: AndroidView[] = [];
    if (this.drawerOpen) {
      children.push(this.drawer(env, [...apps].sort((a, b) => a.label.localeCompare(b.label)), launch));
    } else {
      const fg = theme.appearance === 'dark' ? '#e3e2e9' : '#1a1b20';
      children.push(textView(env, 'launcher/glance', 'Sun, Dec 6', { x: 24, y: env.top + 24, width: 160, height: 32 }, { size: 22, color: fg, resourceId: `${LAUNCHER_PACKAGE}:id/date` }));
      const cols = 4;
      const cellW = env.width / cols;
      const gridTop = env.top + 120;
      // The shipped apps, then what the user installed (a Pixel adds new apps to the home screen).
      const home = [...HOME_GRID.map((pkg) => byPkg.get(pkg)), ...apps.filter((a) => a.thirdParty)].filter((a): a is AndroidAppDefinition => a !== undefined);
      home.forEach((app, i) => {
        children.push(icon(env, `launcher/home/${app.pkg}`, app, (i % cols) * cellW, gridTop + Math.floor(i / cols) * CELL_H, cellW, fg, launch));
      });
      const bottom = env.height - env.bottom;
      const dockTop = bottom - 72 - CELL_H + 16;
      DOCK.forEach((pkg, i) => {
        const app = byPkg.get(pkg);
        if (app) children.push(icon(env, `launcher/dock/${pkg}`, app, i * cellW, dockTop, cellW, fg, launch, false));
      });
      const bar = { x: 16, y: bottom - 64, width: env.width - 32, height: 48 };
      children.push({
        uid: 'launcher/search',
        type: 'Other',
        className: 'android.widget.FrameLayout',
        resourceId: `${LAUNCHER_PACKAGE}:id/search_container_hotseat`,
        contentDesc: 'Search',
        label: 'Search',
        rect: bar,
        onTap: openDrawer,
        draw: ({ ctx }) => {
          fillRoundRect(ctx, bar, 24, theme.appearance === 'dark' ? '#2f3033' : '#ffffff');
          drawText(ctx, 'G', bar.x + 24, bar.y + 24, { size: 20, color: '#4285f4', weight: 'bold', align: 'center' });
        },
      });
    }
    return {
      uid: 'launcher/window',
      type: 'Window',
      pkg: LAUNCHER_PACKAGE,
      rect: env.screen,
      opaque: true,
      draw: ({ ctx }) => fillRect(ctx, env.screen, this.drawerOpen ? theme.background : wallpaper),
      // Swipe up anywhere on the home screen opens the app drawer; down closes it.
      onDrag: (_dx, dy) => {
        if (dy < -50) this.drawerOpen = true;
        else if (dy > 50 && this.drawerOpen && this.drawerScroll.offset === 0) this.drawerOpen = false;
      },
      children: [
        {
          uid: 'launcher/workspace',
          type: 'Other',
          resourceId: this.drawerOpen ? `${LAUNCHER_PACKAGE}:id/apps_view` : `${LAUNCHER_PACKAGE}:id/workspace`,
          rect: { x: 0, y: env.top, width: env.width, height: env.height - env.top - env.bottom },
          children,
        },
      ],
    };
  }

  private drawer(env: AndroidEnv, apps: AndroidAppDefinition[], launch: (pkg: string) => void): AndroidView {
    const cols = 4;
    const cellW = env.width / cols;
    const rect = { x: 0, y: env.top + 72, width: env.width, height: env.height - env.bottom - env.top - 72 };
    const rows = Math.ceil(apps.length / cols);
    const maxScroll = rows * CELL_H + 16 - rect.height;
    this.drawerScroll.clampTo(maxScroll);
    const top = rect.y + 8 - this.drawerScroll.offset;
    return {
      uid: 'launcher/drawer',
      type: 'CollectionView',
      resourceId: `${LAUNCHER_PACKAGE}:id/apps_list_view`,
      rect,
      clips: true,
      scrollable: maxScroll > 0,
      onDrag: (_dx, dy) => {
        if (dy > 50 && this.drawerScroll.offset === 0) this.drawerOpen = false;
        else this.drawerScroll.drag(dy, maxScroll);
      },
      children: apps.map((app, i) => icon(env, `launcher/drawer/${app.pkg}`, app, (i % cols) * cellW, top + Math.floor(i / cols) * CELL_H, cellW, env.theme.label, launch)),
    };
  }

  reset(): void {
    this.drawerOpen = false;
    this.drawerScroll.reset();
  }
}

function icon(env: AndroidEnv, uid: string, app: AndroidAppDefinition, x: number, y: number, w: number, fg: string, launch: (pkg: string) => void, withLabel = true): AndroidView {
  const cx = x + w / 2;
  const rect = { x, y, width: w, height: CELL_H };
  return {
    uid,
    type: 'Icon',
    className: 'android.widget.TextView',
    label: app.label,
    text: withLabel ? app.label : '',
    contentDesc: app.label,
    longClickable: true,
    focusable: true,
    rect,
    onTap: () => launch(app.pkg),
    draw: ({ ctx }) => {
      ctx.fillStyle = app.icon.background;
      ctx.beginPath();
      ctx.arc(cx, y + 8 + ICON / 2, ICON / 2, 0, Math.PI * 2);
      ctx.fill();
      drawText(ctx, app.icon.letter, cx, y + 8 + ICON / 2, { size: 24, color: app.icon.foreground, weight: 'bold', align: 'center' });
      if (withLabel) drawText(ctx, app.label, cx, y + 8 + ICON + 14, { size: 13, color: fg, align: 'center' });
    },
  };
}

/** Overview (Recents): one card per recent task, most recent first, and "Clear all". */
export function recentsWindow(env: AndroidEnv, tasks: readonly AndroidAppDefinition[], open: (pkg: string) => void, clearAll: () => void): AndroidView {
  const { theme } = env;
  const children: AndroidView[] = [];
  const cardW = env.width * 0.62;
  const cardH = (env.height - env.top - env.bottom) * 0.62;
  const cy = env.top + (env.height - env.top - env.bottom) / 2 - 24;
  tasks.slice(0, 3).forEach((app, i) => {
    const r = { x: (env.width - cardW) / 2 + i * (cardW + 24), y: cy - cardH / 2, width: cardW, height: cardH };
    children.push({
      uid: `recents/task/${app.pkg}`,
      type: 'Other',
      className: 'android.widget.FrameLayout',
      resourceId: `${LAUNCHER_PACKAGE}:id/snapshot`,
      contentDesc: app.label,
      label: app.label,
      rect: r,
      onTap: () => open(app.pkg),
      draw: ({ ctx }) => {
        fillRoundRect(ctx, r, 20, theme.background);
        drawText(ctx, app.label, r.x + r.width / 2, r.y - 20, { size: 15, color: '#ffffff', align: 'center' });
      },
    });
  });
  if (tasks.length === 0) children.push(textView(env, 'recents/empty', 'No recent items', { x: 0, y: cy - 20, width: env.width, height: 40 }, { size: 16, color: '#ffffff', align: 'center' }));
  else {
    const r = { x: env.width / 2 - 60, y: env.height - env.bottom - 64, width: 120, height: 40 };
    children.push({
      uid: 'recents/clear_all',
      type: 'Button',
      resourceId: `${LAUNCHER_PACKAGE}:id/clear_all`,
      label: 'Clear all',
      text: 'Clear all',
      rect: r,
      onTap: clearAll,
      draw: ({ ctx }) => {
        fillRoundRect(ctx, r, 20, '#303036');
        drawText(ctx, 'Clear all', r.x + r.width / 2, r.y + 20, { size: 14, color: '#ffffff', align: 'center' });
      },
    });
  }
  return {
    uid: 'recents/window',
    type: 'Window',
    pkg: LAUNCHER_PACKAGE,
    rect: env.screen,
    opaque: true,
    draw: ({ ctx }) => fillRect(ctx, env.screen, '#2b2b30'),
    children,
  };
}

import type { AppDefinition, Env, SystemAlert } from './app';
import { contextMenuWindow } from '../ui/context-menu';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { drawGlyph } from '../../engine/render/glyphs';
import { drawText, fillRoundRect } from '../../engine/render/paint';
import type { View } from '../../engine/view';

export const SPRINGBOARD_BUNDLE_ID = 'com.apple.springboard';
export const SPRINGBOARD_NAME = 'SpringBoard';

export const ICON_SIZE = 60;
const LABEL_HEIGHT = 24;
const SWIPE_THRESHOLD = 40;
const LANDSCAPE_DOCK_WIDTH = 84;

/** What the home screen asks of the phone. */
export interface HomeActions {
  launch(bundleId: string): void;
  /** Shows a SpringBoard alert (the remove-app confirmation). */
  showAlert(alert: SystemAlert): void;
  /** Deletes the app from the phone (Delete App). */
  uninstall(bundleId: string): void;
}

export const REMOVE_APP_BUTTONS = ['Delete App', 'Remove from Home Screen', 'Cancel'] as const;

/** The home screen's own state: which page is shown, which icon's context menu is open, what was removed. */
export class HomeScreen {
  page = 0;
  /** The app whose icon was long-pressed (its context menu is open). */
  private menuFor: AppDefinition | null = null;
  private readonly removed = new Set<string>();
  private pages: readonly (readonly AppDefinition[])[];
  private dock: readonly AppDefinition[];

  constructor(
    pages: readonly (readonly AppDefinition[])[],
    dock: readonly AppDefinition[],
    private readonly actions: HomeActions,
  ) {
    this.pages = pages;
    this.dock = dock;
  }

  get pageCount(): number {
    return this.pages.length;
  }

  /** Takes the app's icon off the home screen (the app stays installed unless deleted). */
  removeIcon(bundleId: string): void {
    this.removed.add(bundleId);
    this.pages = this.pages.map((page) => page.filter((a) => a.bundleId !== bundleId));
    this.dock = this.dock.filter((a) => a.bundleId !== bundleId);
  }

  /** Puts an installed app's icon on the last page (a new page when that one is full), replacing an old one. */
  addIcon(app: AppDefinition, perPage: number): void {
    this.removed.delete(app.bundleId);
    const pages = this.pages.map((page) => page.filter((a) => a.bundleId !== app.bundleId));
    const last = pages[pages.length - 1];
    if (last && last.length < perPage) pages[pages.length - 1] = [...last, app];
    else pages.push([app]);
    this.pages = pages;
    this.dock = this.dock.filter((a) => a.bundleId !== app.bundleId);
  }

  /** Leaving the home screen closes an open context menu. */
  closeMenu(): void {
    this.menuFor = null;
  }

  private confirmRemove(app: AppDefinition): void {
    this.actions.showAlert({
      title: `Remove \u201c${app.name}\u201d?`,
      message: 'Removing from Home Screen will keep the app in your App Library.',
      buttons: [...REMOVE_APP_BUTTONS],
      acceptButton: 'Remove from Home Screen',
      dismissButton: 'Cancel',
      onChoice: (button) => {
        if (button === 'Cancel') return;
        this.removeIcon(app.bundleId);
        if (button === 'Delete App') this.actions.uninstall(app.bundleId);
      },
    });
  }

  windows(env: Env): View[] {
    const windows = this.homeWindows(env);
    const app = this.menuFor;
    if (!app) return windows;
    const icon = findIcon(windows, app.bundleId);
    if (!icon) return windows;
    const menu = contextMenuWindow(env, 'springboard/context-menu', icon.rect, [
      { label: 'Share App', action: () => undefined },
      { label: 'Edit Home Screen', action: () => undefined },
      { label: 'Remove App', destructive: true, action: () => this.confirmRemove(app) },
    ], () => (this.menuFor = null));
    // The pressed icon is lifted above the dimmed screen.
    return [...windows, menu, { uid: 'springboard/lifted-icon/window', type: 'Window', rect: env.screen, children: [{ ...icon, uid: 'springboard/lifted-icon', inTree: false, onTap: () => (this.menuFor = null), onLongPress: undefined }] }];
  }

  private homeWindows(env: Env): View[] {
    const { width, height } = env;
    const landscape = width > height;
    const columns = landscape ? 6 : 4;
    const dockHeight = landscape ? 0 : 96;
    const dockY = height - env.bottom - dockHeight - (env.bottom > 0 ? 0 : 4);
    const margin = landscape ? 60 : 27;
    // In landscape the dock stands at the right edge (as on the larger iPhones): the grid keeps clear of it.
    const sideDock = landscape ? LANDSCAPE_DOCK_WIDTH + 12 : 0;
    const colPitch = (width - sideDock - 2 * margin - ICON_SIZE) / (columns - 1);
    const rowPitch = landscape ? 90 : env.profile.height > 700 ? 104 : 92;
    const gridTop = env.top + (landscape ? 8 : 16);
    const icons: View[] = [];
    this.pages.forEach((apps, p) => {
      const pageX = (p - this.page) * width;
      apps.forEach((app, i) => {
        const x = pageX + margin + (i % columns) * colPitch;
        const y = gridTop + Math.floor(i / columns) * rowPitch;
        icons.push(this.icon(app, x, y, true));
      });
    });
    const dotsY = landscape ? height - 20 : dockY - 22;
    const children: View[] = [...icons];
    children.push(this.pageDots(env, dotsY));
    if (landscape) {
      const dockRect = { x: width - LANDSCAPE_DOCK_WIDTH - 12, y: 12, width: LANDSCAPE_DOCK_WIDTH, height: height - 24 - env.bottom };
      const dockPitch = (dockRect.height - 24 - ICON_SIZE) / (this.dock.length - 1);
      children.push({
        uid: 'springboard/dock',
        type: 'Other',
        identifier: 'Dock',
        label: 'Dock',
        rect: dockRect,
        draw: ({ ctx }) => fillRoundRect(ctx, dockRect, 30, 'rgba(255,255,255,0.28)'),
        children: this.dock.map((app, i) => this.icon(app, dockRect.x + (LANDSCAPE_DOCK_WIDTH - ICON_SIZE) / 2, dockRect.y + 12 + i * dockPitch, false)),
      });
    } else {
      const dockRect = { x: 12, y: dockY, width: width - 24, height: dockHeight - 8 };
      const dockPitch = (width - 2 * margin - ICON_SIZE) / (this.dock.length - 1);
      children.push({
        uid: 'springboard/dock',
        type: 'Other',
        identifier: 'Dock',
        label: 'Dock',
        rect: dockRect,
        draw: ({ ctx }) => fillRoundRect(ctx, dockRect, 30, 'rgba(255,255,255,0.28)'),
        children: this.dock.map((app, i) => this.icon(app, margin + i * dockPitch, dockY + 14, false)),
      });
    }
    return [
      {
        uid: 'springboard/window',
        type: 'Window',
        rect: env.screen,
        draw: ({ ctx }) => drawWallpaper(ctx, env),
        onDrag: (dx, dy) => {
          if (Math.abs(dx) < SWIPE_THRESHOLD || Math.abs(dx) < Math.abs(dy)) return;
          this.page = Math.min(this.pages.length - 1, Math.max(0, this.page + (dx < 0 ? 1 : -1)));
        },
        children: [
          {
            uid: 'springboard/pages',
            type: 'Other',
            identifier: 'Home screen icons',
            rect: env.screen,
            accessible: false,
            children,
          },
        ],
      },
    ];
  }

  private icon(app: AppDefinition, x: number, y: number, showLabel: boolean): View {
    const { icon } = app;
    const rect = { x: x - 8, y, width: ICON_SIZE + 16, height: ICON_SIZE + (showLabel ? LABEL_HEIGHT : 0) };
    return {
      uid: `springboard/icon/${app.bundleId}`,
      type: 'Icon',
      identifier: app.name,
      label: app.name,
      rect,
      onTap: () => this.actions.launch(app.bundleId),
      onLongPress: () => (this.menuFor = app),
      draw: ({ ctx }) => {
        const r = { x, y, width: ICON_SIZE, height: ICON_SIZE };
        fillRoundRect(ctx, r, 13.5, icon.background);
        if (icon.glyph) drawGlyph(ctx, icon.glyph, x + 30, y + 30, 38, icon.foreground, 3);
        else if (icon.letter) drawText(ctx, icon.letter, x + 30, y + 31, { size: 30, color: icon.foreground, weight: 'bold', align: 'center' });
        if (showLabel) drawText(ctx, app.name, x + 30, y + ICON_SIZE + 13, { size: 12, color: '#ffffff', align: 'center' });
      },
    };
  }

  private pageDots(env: Env, y: number): View {
    const n = this.pages.length;
    const rect = { x: env.width / 2 - n * 8 - 8, y: y - 10, width: n * 16 + 16, height: 20 };
    const page = this.page;
    return {
      uid: 'springboard/page-indicator',
      type: 'Other',
      label: `page ${page + 1} of ${n}`,
      accessible: true,
      rect,
      draw: ({ ctx }) => {
        for (let i = 0; i < n; i++) {
          ctx.fillStyle = i === page ? '#ffffff' : 'rgba(255,255,255,0.45)';
          ctx.beginPath();
          ctx.arc(env.width / 2 + (i - (n - 1) / 2) * 16, y, 3.5, 0, Math.PI * 2);
          ctx.fill();
        }
      },
    };
  }
}

function findIcon(views: readonly View[], bundleId: string): View | undefined {
  for (const v of views) {
    if (v.uid === `springboard/icon/${bundleId}`) return v;
    const inner = findIcon(v.children ?? [], bundleId);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * A fixed wallpaper of flat colour and large soft shapes: no randomness (same pixels every time) and no
 * gradients, which would make every screenshot of the home screen several times larger as a PNG.
 */
export function drawWallpaper(ctx: SKRSContext2D, env: Env): void {
  const dark = env.theme.appearance === 'dark';
  ctx.fillStyle = dark ? '#141a33' : '#3a5fc0';
  ctx.fillRect(0, 0, env.width, env.height);
  const shapes: [number, number, number, string][] = dark
    ? [
        [0.1, 0.2, 0.55, '#1f2a52'],
        [0.95, 0.75, 0.6, '#2a1a45'],
      ]
    : [
        [0.1, 0.2, 0.55, '#4a72d0'],
        [0.95, 0.75, 0.6, '#6a4fb8'],
      ];
  const size = Math.max(env.width, env.height);
  for (const [fx, fy, fr, color] of shapes) {
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc(env.width * fx, env.height * fy, size * fr * 0.6, 0, Math.PI * 2);
    ctx.fill();
  }
}

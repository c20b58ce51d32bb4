import type { AppDefinition, AppInstance, Env, PhoneServices, SystemState } from './app';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import { glyphButton } from '../../engine/ui/glyph-button';
import { keyboardWindow } from '../../engine/ui/keyboard';
import { navBar, NAV_BAR_HEIGHT } from '../ui/nav-bar';
import { ScrollState } from '../../engine/ui/scroll';
import { groupedTable } from '../ui/table';
import { drawSingleLineText } from '../../engine/ui/text-box';
import { TextInput } from '../../engine/ui/text-input';
import { toolbar, toolbarTop as toolbarTopOf, TOOLBAR_HEIGHT } from '../ui/toolbar';
import type { View } from '../../engine/view';

export const PHOTOS_BUNDLE_ID = 'com.apple.mobileslideshow';

/**
 * Where the unlabeled icon buttons are (uid → glyph), screen by screen:
 * Library: top bar `photos/search` (magnifier), `photos/settings` (gear); section headers `photos/recents/trash`
 * and `photos/favorites/trash` (two identical trash cans); toolbar `photos/share` (share), `photos/add` (plus).
 * Settings, Search and the photo viewer: `photos/back` (back chevron). Share sheet: `photos/share/close` (close x).
 */
export const PHOTOS_GLYPH_BUTTONS = {
  'photos/search': 'magnifier',
  'photos/settings': 'gear',
  'photos/recents/trash': 'trash',
  'photos/favorites/trash': 'trash',
  'photos/share': 'share',
  'photos/add': 'plus',
  'photos/back': 'back',
  'photos/share/close': 'close',
} as const;

/** Sky and hill colours of the generated pictures (flat fills: they compress well and stay deterministic). */
const PALETTE = [
  ['#ffb36b', '#c9753d'],
  ['#4facfe', '#2f7d4f'],
  ['#43e97b', '#2b9a52'],
  ['#fa709a', '#a8405f'],
  ['#a18cd1', '#6a5a99'],
  ['#30cfd0', '#1d7f80'],
  ['#f6d365', '#b08a2e'],
  ['#5ee7df', '#4b7f9a'],
  ['#d4fc79', '#7ab648'],
];

const HEADER_HEIGHT = 48;
const GAP = 2;
/** Double tap zooms a photo to this, and back to 1. */
const DOUBLE_TAP_ZOOM = 2.5;
const MAX_ZOOM = 5;

export const PHOTOS_ACCESS_ALERT_TITLE = '\u201cPhotos\u201d Would Like to Access Your Photos';
export const PHOTOS_ACCESS_ALERT_MESSAGE = 'Photos uses your library to show, edit and share your pictures.';
export const PHOTOS_ACCESS_ALERT_BUTTONS = ['Limit Access\u2026', 'Allow Full Access', "Don't Allow"] as const;

type Screen = 'library' | 'settings' | 'search' | 'share' | 'viewer';

/** The photo open full screen, its zoom and the screen point the zoom is centred on. */
interface Viewer {
  photo: number;
  zoom: number;
  focusX: number;
  focusY: number;
}

class PhotosApp implements AppInstance {
  private recents = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  private favorites = [10, 11, 12];
  private nextPhoto = 13;
  /** Library items that are videos (added with add_media). */
  private readonly videos = new Set<number>();
  private screen: Screen = 'library';
  private readonly scroll = new ScrollState();
  private readonly settingsScroll = new ScrollState();
  private readonly search = new TextInput(false, () => this.search.blur());
  private readonly options = { iCloud: true, shared: false };
  private viewer: Viewer = { photo: 1, zoom: 1, focusX: 0, focusY: 0 };

  constructor(private readonly system: SystemState) {}

  /** Asks for library access while it is undetermined (a phone set up for a test can start that way). */
  activated(services: PhoneServices): void {
    if (this.system.photoLibraryAccess !== 'undetermined') return;
    services.showAlert(PHOTOS_BUNDLE_ID, {
      title: PHOTOS_ACCESS_ALERT_TITLE,
      message: PHOTOS_ACCESS_ALERT_MESSAGE,
      buttons: [...PHOTOS_ACCESS_ALERT_BUTTONS],
      acceptButton: 'Allow Full Access',
      dismissButton: "Don't Allow",
      onChoice: (button) => {
        this.system.photoLibraryAccess = button === 'Allow Full Access' ? 'full' : button === "Don't Allow" ? 'denied' : 'limited';
      },
    });
  }

  /** A photo or video added to the library comes first among Recents. */
  mediaAdded(kind: 'photo' | 'video'): void {
    const n = this.nextPhoto++;
    if (kind === 'video') this.videos.add(n);
    this.recents.unshift(n);
  }

  private itemLabel(n: number): string {
    return `${this.videos.has(n) ? 'Video' : 'Photo'} ${n}`;
  }

  focusedInput(): TextInput | null {
    return this.screen === 'search' && this.search.focused ? this.search : null;
  }

  reset(): void {
    this.screen = 'library';
    this.viewer = { photo: 1, zoom: 1, focusX: 0, focusY: 0 };
    this.scroll.reset();
    this.settingsScroll.reset();
    this.search.blur();
    this.search.clear();
  }

  windows(env: Env): View[] {
    const windows: View[] = [{ uid: 'photos/window', type: 'Window', rect: env.screen, draw: ({ ctx, theme }) => fillRect(ctx, env.screen, theme.background), children: this.content(env) }];
    if (this.focusedInput()) windows.push(keyboardWindow(env, this.search, 'search'));
    return windows;
  }

  private content(env: Env): View[] {
    switch (this.screen) {
      case 'library':
        return this.library(env);
      case 'settings':
        return this.settings(env);
      case 'search':
        return this.searchScreen(env);
      case 'share':
        return this.shareSheet(env);
      case 'viewer':
        return this.photoViewer(env);
    }
  }

  private open(photo: number): void {
    this.viewer = { photo, zoom: 1, focusX: 0, focusY: 0 };
    this.screen = 'viewer';
  }

  private zoomTo(zoom: number, x: number, y: number): void {
    const z = Math.min(MAX_ZOOM, Math.max(1, zoom));
    this.viewer = { ...this.viewer, zoom: z, focusX: x, focusY: y };
  }

  /** One photo full width; double tap zooms in around the finger (and out again), a pinch scales it. */
  private photoViewer(env: Env): View[] {
    const { theme } = env;
    const top = env.top + NAV_BAR_HEIGHT;
    const area = { x: 0, y: top, width: env.width, height: env.height - top - env.bottom };
    const side = Math.min(area.width, area.height);
    const base = { x: area.x + (area.width - side) / 2, y: area.y + (area.height - side) / 2, width: side, height: side };
    const { photo, zoom, focusX, focusY } = this.viewer;
    const rect = {
      x: focusX + (base.x - focusX) * zoom,
      y: focusY + (base.y - focusY) * zoom,
      width: side * zoom,
      height: side * zoom,
    };
    const pane: View = {
      uid: 'photos/viewer/scroll',
      type: 'ScrollView',
      rect: area,
      clips: true,
      draw: ({ ctx }) => fillRect(ctx, area, theme.background),
      onDoubleTap: (x, y) => (this.viewer.zoom > 1 ? this.zoomTo(1, x, y) : this.zoomTo(DOUBLE_TAP_ZOOM, x, y)),
      onPinch: (scale, x, y) => this.zoomTo(this.viewer.zoom * scale, x, y),
      children: [{ uid: `photos/viewer/photo/${photo}`, type: 'Image', label: this.itemLabel(photo), rect, draw: ({ ctx }) => drawThumbnail(ctx, rect, photo) }],
    };
    return [pane, this.subBar(env, this.itemLabel(photo))];
  }

  private library(env: Env): View[] {
    const { theme } = env;
    const barBottom = env.top + NAV_BAR_HEIGHT;
    const cy = env.top + NAV_BAR_HEIGHT / 2;
    const bar = navBar(env, {
      uid: 'photos/navbar',
      title: 'Library',
      extra: [
        glyphButton('photos/search', 'magnifier', env.width - 78, cy, theme.tint, () => (this.screen = 'search')),
        glyphButton('photos/settings', 'gear', env.width - 30, cy, theme.tint, () => (this.screen = 'settings')),
      ],
    });
    const toolbarTop = toolbarTopOf(env);
    const area = { x: 0, y: barBottom, width: env.width, height: toolbarTop - barBottom };
    const columns = env.width > env.height ? 5 : 3;
    const thumb = (env.width - (columns - 1) * GAP) / columns;
    const sections: [string, string, number[]][] = [
      ['recents', 'Recents', this.recents],
      ['favorites', 'Favorites', this.favorites],
    ];
    let contentHeight = 0;
    for (const [, , photos] of sections) contentHeight += HEADER_HEIGHT + Math.ceil(photos.length / columns) * (thumb + GAP) + 8;
    const maxScroll = contentHeight - area.height;
    this.scroll.clampTo(maxScroll);
    let y = area.y - this.scroll.offset;
    const children: View[] = [];
    for (const [id, title, photos] of sections) {
      const headerY = y;
      const titleW = Math.ceil(measure(title, 22, 'bold'));
      children.push({
        uid: `photos/${id}/header`,
        type: 'StaticText',
        label: title,
        value: title,
        traits: ['Header'],
        rect: { x: 16, y: headerY + 10, width: titleW, height: 28 },
        draw: ({ ctx }) => drawText(ctx, title, 16, headerY + 24, { size: 22, color: theme.label, weight: 'bold' }),
      });
      children.push(
        glyphButton(`photos/${id}/trash`, 'trash', env.width - 30, headerY + 24, theme.tint, () => {
          photos.pop();
        }),
      );
      y += HEADER_HEIGHT;
      photos.forEach((n, i) => {
        const r = { x: (i % columns) * (thumb + GAP), y: y + Math.floor(i / columns) * (thumb + GAP), width: thumb, height: thumb };
        children.push({
          uid: `photos/photo/${n}`,
          type: 'Image',
          label: this.itemLabel(n),
          rect: r,
          onTap: () => this.open(n),
          draw: ({ ctx }) => drawThumbnail(ctx, r, n),
        });
      });
      y += Math.ceil(photos.length / columns) * (thumb + GAP) + 8;
    }
    const grid: View = {
      uid: 'photos/grid',
      type: 'CollectionView',
      rect: area,
      clips: true,
      onDrag: (_dx, dy) => this.scroll.drag(dy, maxScroll),
      children,
    };
    const total = this.recents.length + this.favorites.length;
    const countText = `${total} ${total === 1 ? 'Photo' : 'Photos'}`;
    const countW = Math.ceil(measure(countText, 15));
    const tcy = toolbarTop + TOOLBAR_HEIGHT / 2;
    const bottomBar = toolbar(env, 'photos/toolbar', [
        glyphButton('photos/share', 'share', 30, tcy, theme.tint, () => (this.screen = 'share')),
        {
          uid: 'photos/count',
          type: 'StaticText',
          label: countText,
          value: countText,
          rect: { x: Math.round((env.width - countW) / 2), y: tcy - 10, width: countW, height: 20 },
          draw: ({ ctx }) => drawText(ctx, countText, env.width / 2, tcy, { size: 15, color: theme.label, align: 'center' }),
        },
        glyphButton('photos/add', 'plus', env.width - 30, tcy, theme.tint, () => {
          this.recents.push(this.nextPhoto++);
        }),
      ]);
    return [grid, bar, bottomBar];
  }

  private subBar(env: Env, title: string): View {
    const cy = env.top + NAV_BAR_HEIGHT / 2;
    return navBar(env, {
      uid: `photos/${this.screen}/navbar`,
      title,
      extra: [
        glyphButton('photos/back', 'back', 26, cy, env.theme.tint, () => {
          this.search.blur();
          this.screen = 'library';
        }),
      ],
    });
  }

  private settings(env: Env): View[] {
    const top = env.top + NAV_BAR_HEIGHT;
    const table = groupedTable(env, {
      uid: 'photos/settings/table',
      rect: { x: 0, y: top, width: env.width, height: env.height - top },
      scroll: this.settingsScroll,
      bottomInset: env.bottom,
      sections: [
        {
          id: 'sync',
          header: 'Photos',
          rows: [
            { id: 'icloud', title: 'iCloud Photos', toggle: { on: this.options.iCloud, onToggle: () => (this.options.iCloud = !this.options.iCloud) } },
            { id: 'shared', title: 'Shared Albums', toggle: { on: this.options.shared, onToggle: () => (this.options.shared = !this.options.shared) } },
          ],
        },
      ],
    });
    return [table, this.subBar(env, 'Photos Settings')];
  }

  private searchScreen(env: Env): View[] {
    const { theme } = env;
    const search = this.search;
    const fieldRect = { x: 16, y: env.top + NAV_BAR_HEIGHT + 10, width: env.width - 32, height: 36 };
    const field: View = {
      uid: 'photos/search/field',
      type: 'SearchField',
      label: 'Search',
      value: search.text,
      placeholder: 'Photos, People, Places…',
      focused: search.focused,
      rect: fieldRect,
      onTap: () => search.focus(),
      onClear: () => search.clear(),
      textInput: search,
      draw: (p) => {
        fillRoundRect(p.ctx, fieldRect, 10, theme.fieldBackground);
        drawSingleLineText(p, { x: fieldRect.x + 12, y: fieldRect.y + 7, width: fieldRect.width - 24, height: 22 }, search.text, 'Photos, People, Places…', search.focused);
      },
    };
    const result = search.text.trim() === '' ? 'Search your photos' : `No Results for "${search.text.trim()}"`;
    const ry = fieldRect.y + fieldRect.height + 60;
    const rw = Math.ceil(measure(result, 17));
    const resultView: View = {
      uid: 'photos/search/result',
      type: 'StaticText',
      label: result,
      value: result,
      rect: { x: Math.round((env.width - rw) / 2), y: ry - 11, width: rw, height: 22 },
      draw: ({ ctx }) => drawText(ctx, result, env.width / 2, ry, { size: 17, color: theme.secondaryLabel, align: 'center' }),
    };
    return [this.subBar(env, 'Search'), field, resultView];
  }

  private shareSheet(env: Env): View[] {
    const { theme } = env;
    const sheetTop = env.top + 40;
    const sheet = { x: 0, y: sheetTop, width: env.width, height: env.height - sheetTop };
    const total = this.recents.length + this.favorites.length;
    const text = `Share ${total} ${total === 1 ? 'Photo' : 'Photos'}`;
    const tw = Math.ceil(measure(text, 20, 'bold'));
    const actions = ['Copy', 'Save to Files', 'Print'];
    return [
      ...this.library(env),
      { uid: 'photos/share/dim', type: 'Other', inTree: false, opaque: true, rect: env.screen, draw: ({ ctx }) => fillRect(ctx, env.screen, theme.dim) },
      {
        uid: 'photos/share/sheet',
        type: 'Other',
        identifier: 'ActivityListView',
        rect: sheet,
        opaque: true,
        draw: ({ ctx }) => fillRoundRect(ctx, sheet, 12, theme.groupedBackground),
        children: [
          {
            uid: 'photos/share/title',
            type: 'StaticText',
            label: text,
            value: text,
            rect: { x: 20, y: sheetTop + 16, width: tw, height: 26 },
            draw: ({ ctx }) => drawText(ctx, text, 20, sheetTop + 29, { size: 20, color: theme.label, weight: 'bold' }),
          },
          glyphButton('photos/share/close', 'close', env.width - 32, sheetTop + 29, theme.secondaryLabel, () => (this.screen = 'library')),
          ...actions.map((a, i): View => {
            const r = { x: 16, y: sheetTop + 70 + i * 52, width: env.width - 32, height: 44 };
            return {
              uid: `photos/share/action/${i}`,
              type: 'Button',
              label: a,
              rect: r,
              onTap: () => (this.screen = 'library'),
              draw: ({ ctx }) => {
                fillRoundRect(ctx, r, 10, theme.cell);
                drawText(ctx, a, r.x + 16, r.y + 22, { size: 17, color: theme.label });
              },
            };
          }),
        ],
      },
    ];
  }
}

function drawThumbnail(ctx: import('@napi-rs/canvas').SKRSContext2D, r: { x: number; y: number; width: number; height: number }, n: number): void {
  const [sky, hill] = PALETTE[n % PALETTE.length];
  ctx.fillStyle = sky;
  ctx.fillRect(r.x, r.y, r.width, r.height);
  // A sun and a hill, so thumbnails look like pictures rather than swatches.
  ctx.fillStyle = '#fff7d6';
  ctx.beginPath();
  ctx.arc(r.x + r.width * (0.3 + (n % 3) * 0.2), r.y + r.height * 0.3, r.width * 0.12, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = hill;
  ctx.beginPath();
  ctx.moveTo(r.x, r.y + r.height);
  ctx.quadraticCurveTo(r.x + r.width * 0.4, r.y + r.height * 0.45, r.x + r.width, r.y + r.height * 0.85);
  ctx.lineTo(r.x + r.width, r.y + r.height);
  ctx.closePath();
  ctx.fill();
}

export const photosApp: AppDefinition = {
  bundleId: PHOTOS_BUNDLE_ID,
  name: 'Photos',
  icon: { background: '#ffffff', foreground: '#ff9500', glyph: 'heart' },
  create: (system) => new PhotosApp(system),
};

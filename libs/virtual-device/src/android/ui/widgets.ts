import type { Rect } from '../../engine/element';
import { drawGlyph, type GlyphName } from '../../engine/render/glyphs';
import { measure } from '../../engine/render/measure';
import { drawText, fillRect, fillRoundRect } from '../../engine/render/paint';
import type { FontWeight } from '../../engine/render/fonts';
import type { ScrollState } from '../../engine/ui/scroll';
import type { AndroidView } from '../android-view';
import type { AndroidEnv } from '../apps/app';

/** Material widgets of the virtual Android phone, built as views (dp). */

export interface TextOptions {
  size?: number;
  weight?: FontWeight;
  color?: string;
  align?: 'left' | 'center';
  resourceId?: string;
  /** Drawn only: absent from the dump (decoration, web content drawn by Chrome…). */
  hidden?: boolean;
}

/** A TextView: one line of text left-aligned at x (or centred in `width`), vertically centred in the rect. */
export function textView(env: AndroidEnv, uid: string, text: string, rect: Rect, o: TextOptions = {}): AndroidView {
  const size = o.size ?? 16;
  const color = o.color ?? env.theme.label;
  return {
    uid,
    type: 'StaticText',
    label: text,
    text,
    resourceId: o.resourceId,
    rect,
    inTree: o.hidden ? false : undefined,
    draw: ({ ctx }) =>
      o.align === 'center'
        ? drawText(ctx, text, rect.x + rect.width / 2, rect.y + rect.height / 2, { size, color, weight: o.weight, align: 'center' })
        : drawText(ctx, text, rect.x, rect.y + rect.height / 2, { size, color, weight: o.weight }),
  };
}

/** The frame of an app window: full screen, filled with the background, content between the system bars. */
export function appWindow(env: AndroidEnv, pkg: string, children: AndroidView[], background = env.theme.background): AndroidView {
  return {
    uid: `${pkg}/decor`,
    type: 'Window',
    pkg,
    rect: env.screen,
    opaque: true,
    draw: ({ ctx }) => fillRect(ctx, env.screen, background),
    children: [
      {
        uid: `${pkg}/content`,
        type: 'Other',
        className: 'android.widget.LinearLayout',
        rect: contentRect(env),
        resourceId: 'android:id/content',
        children,
      },
    ],
  };
}

/** Between the status bar and the navigation bar. */
export function contentRect(env: AndroidEnv): Rect {
  return { x: 0, y: env.top, width: env.width, height: env.height - env.top - env.bottom };
}

export const APP_BAR_HEIGHT = 64;

export interface AppBarOptions {
  uid: string;
  title: string;
  pkg: string;
  /** Shows the "Navigate up" arrow. */
  onUp?: () => void;
  /** Icon-only actions at the right (content-desc set unless `unlabeled`). */
  actions?: { id: string; glyph: GlyphName; description?: string; onTap(): void }[];
}

/** A Material top app bar: up arrow, title, actions. */
export function topAppBar(env: AndroidEnv, o: AppBarOptions): AndroidView {
  const { theme } = env;
  const rect = { x: 0, y: env.top, width: env.width, height: APP_BAR_HEIGHT };
  const cy = rect.y + rect.height / 2;
  const children: AndroidView[] = [];
  if (o.onUp) {
    const up = o.onUp;
    children.push({
      uid: `${o.uid}/up`,
      type: 'Button',
      className: 'android.widget.ImageButton',
      contentDesc: 'Navigate up',
      label: 'Navigate up',
      rect: { x: 4, y: cy - 24, width: 48, height: 48 },
      onTap: up,
      draw: ({ ctx }) => drawArrowLeft(ctx, 28, cy, theme.label),
    });
  }
  const titleX = o.onUp ? 64 : 16;
  children.push(textView(env, `${o.uid}/title`, o.title, { x: titleX, y: cy - 14, width: Math.ceil(measure(o.title, 22)), height: 28 }, { size: 22 }));
  (o.actions ?? []).forEach((a, i) => {
    const cx = env.width - 28 - i * 48;
    children.push({
      uid: `${o.uid}/action/${a.id}`,
      type: 'Button',
      className: 'android.widget.ImageButton',
      contentDesc: a.description,
      label: a.description,
      rect: { x: cx - 24, y: cy - 24, width: 48, height: 48 },
      onTap: () => a.onTap(),
      draw: ({ ctx }) => drawGlyph(ctx, a.glyph, Math.round(cx), Math.round(cy), 22, theme.label),
    });
  });
  return {
    uid: o.uid,
    type: 'Other',
    className: 'android.view.ViewGroup',
    resourceId: `${o.pkg}:id/action_bar`,
    rect,
    opaque: true,
    draw: ({ ctx }) => fillRect(ctx, rect, theme.background),
    children,
  };
}

export function drawArrowLeft(ctx: import('@napi-rs/canvas').SKRSContext2D, cx: number, cy: number, color: string): void {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(cx + 8, cy);
  ctx.lineTo(cx - 8, cy);
  ctx.moveTo(cx - 2, cy - 6);
  ctx.lineTo(cx - 8, cy);
  ctx.lineTo(cx - 2, cy + 6);
  ctx.stroke();
  ctx.restore();
}

export interface ListRow {
  id: string;
  title: string;
  summary?: string;
  /** A Material switch at the right: tapping the row or the switch toggles it. */
  toggle?: { on: boolean; onToggle(): void };
  onTap?: () => void;
  /** A round coloured icon with a letter at the left. */
  icon?: { color: string; letter: string };
  enabled?: boolean;
}

const ROW_ONE_LINE = 56;
const ROW_TWO_LINES = 72;

/** A scrolling settings-style list (RecyclerView) of one- or two-line rows. */
export function listView(env: AndroidEnv, uid: string, rect: Rect, rows: readonly ListRow[], scroll: ScrollState, resourceId?: string): AndroidView {
  const { theme } = env;
  const heights = rows.map((r) => (r.summary ? ROW_TWO_LINES : ROW_ONE_LINE));
  const total = heights.reduce((a, b) => a + b, 0) + 16;
  const maxScroll = total - rect.height;
  scroll.clampTo(maxScroll);
  let y = rect.y + 8 - scroll.offset;
  const children = rows.map((row, i) => {
    const r = { x: 0, y, width: env.width, height: heights[i] };
    y += heights[i];
    return listRow(env, `${uid}/row/${row.id}`, row, r);
  });
  return {
    uid,
    type: 'Table',
    resourceId,
    rect,
    clips: true,
    scrollable: maxScroll > 0,
    onDrag: (_dx, dy) => scroll.drag(dy, maxScroll),
    draw: ({ ctx }) => fillRect(ctx, rect, theme.background),
    children,
  };
}

function listRow(env: AndroidEnv, uid: string, row: ListRow, rect: Rect): AndroidView {
  const { theme } = env;
  const enabled = row.enabled ?? true;
  const left = row.icon ? 72 : 24;
  const cy = rect.y + rect.height / 2;
  const children: AndroidView[] = [];
  if (row.icon) {
    const icon = row.icon;
    children.push({
      uid: `${uid}/icon`,
      type: 'Image',
      resourceId: 'android:id/icon',
      rect: { x: 20, y: cy - 16, width: 32, height: 32 },
      draw: ({ ctx }) => {
        fillRoundRect(ctx, { x: 20, y: cy - 16, width: 32, height: 32 }, 16, icon.color);
        drawText(ctx, icon.letter, 36, cy, { size: 15, color: '#ffffff', weight: 'bold', align: 'center' });
      },
    });
  }
  const titleColor = enabled ? theme.label : theme.tertiaryLabel;
  const titleY = row.summary ? cy - 11 : cy;
  children.push({
    ...textView(env, `${uid}/title`, row.title, { x: left, y: titleY - 11, width: Math.ceil(measure(row.title, 18)), height: 22 }, { size: 18, color: titleColor }),
    resourceId: 'android:id/title',
  });
  if (row.summary) {
    const summary = row.summary;
    children.push({
      ...textView(env, `${uid}/summary`, summary, { x: left, y: cy + 1, width: Math.ceil(measure(summary, 14)), height: 20 }, { size: 14, color: theme.secondaryLabel }),
      resourceId: 'android:id/summary',
    });
  }
  if (row.toggle) {
    const toggle = row.toggle;
    const sr = { x: env.width - 24 - 52, y: cy - 16, width: 52, height: 32 };
    children.push({
      uid: `${uid}/switch`,
      type: 'Switch',
      resourceId: 'android:id/switch_widget',
      text: '',
      label: row.title,
      checkable: true,
      checked: toggle.on,
      focusable: true,
      rect: sr,
      value: toggle.on ? '1' : '0',
      onTap: () => toggle.onToggle(),
      draw: ({ ctx }) => drawMaterialSwitch(ctx, sr, toggle.on, theme),
    });
  }
  const tap = row.toggle ? row.toggle.onToggle : row.onTap;
  return {
    uid,
    type: 'Cell',
    rect,
    focusable: true,
    enabled,
    onTap: tap && enabled ? () => tap() : undefined,
    opaque: true,
    children,
  };
}

/** A Material 3 switch: a track with a large thumb (and a check) when on, a small outlined thumb when off. */
export function drawMaterialSwitch(ctx: import('@napi-rs/canvas').SKRSContext2D, r: Rect, on: boolean, theme: AndroidEnv['theme']): void {
  if (on) {
    fillRoundRect(ctx, r, r.height / 2, theme.switchOn);
    ctx.fillStyle = theme.appearance === 'dark' ? '#11275a' : '#ffffff';
    ctx.beginPath();
    ctx.arc(r.x + r.width - r.height / 2, r.y + r.height / 2, 12, 0, Math.PI * 2);
    ctx.fill();
  } else {
    fillRoundRect(ctx, r, r.height / 2, theme.tertiaryLabel);
    fillRoundRect(ctx, { x: r.x + 2, y: r.y + 2, width: r.width - 4, height: r.height - 4 }, r.height / 2 - 2, theme.switchOff);
    ctx.fillStyle = theme.tertiaryLabel;
    ctx.beginPath();
    ctx.arc(r.x + r.height / 2, r.y + r.height / 2, 8, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** A filled Material button with a text label. */
export function textButton(env: AndroidEnv, uid: string, label: string, rect: Rect, onTap: () => void, o: { resourceId?: string; filled?: boolean } = {}): AndroidView {
  const { theme } = env;
  return {
    uid,
    type: 'Button',
    label,
    text: label,
    resourceId: o.resourceId,
    rect,
    focusable: true,
    onTap,
    draw: ({ ctx }) => {
      if (o.filled) fillRoundRect(ctx, rect, rect.height / 2, theme.tint);
      const color = o.filled ? (theme.appearance === 'dark' ? '#11275a' : '#ffffff') : theme.tint;
      drawText(ctx, label, rect.x + rect.width / 2, rect.y + rect.height / 2, { size: 15, color, weight: 'bold', align: 'center' });
    },
  };
}



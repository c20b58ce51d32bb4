import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Env } from '../apps/app';
import type { Rect } from '../model';
import { drawText, fillRect, fillRoundRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import type { View } from '../../engine/view';

export interface MenuItem {
  label: string;
  /** Drawn red (Remove App, Delete). */
  destructive?: boolean;
  /** Runs after the menu has closed. */
  action: () => void;
}

/** A preview card above the menu (Safari's link preview), labelled for the accessibility tree. */
export interface MenuPreview {
  label: string;
  height: number;
  draw(ctx: SKRSContext2D, rect: Rect): void;
}

const ROW_HEIGHT = 44;
const MENU_WIDTH = 250;
const GAP = 8;
const DESTRUCTIVE = '#ff3b30';

/**
 * A context menu (UIContextMenuInteraction) for what was long-pressed at `anchor`: the screen dims, the menu
 * opens below the anchor (above it when there is no room), and a tap outside closes it. Items are Buttons.
 */
export function contextMenuWindow(env: Env, uid: string, anchor: Rect, items: readonly MenuItem[], close: () => void, preview?: MenuPreview): View {
  const { theme } = env;
  const height = items.length * ROW_HEIGHT;
  const previewBlock = preview ? preview.height + GAP : 0;
  const x = Math.round(Math.min(Math.max(12, anchor.x), env.width - MENU_WIDTH - 12));
  const below = anchor.y + anchor.height + GAP;
  const above = anchor.y - GAP - height - previewBlock;
  const top = below + previewBlock + height <= env.height - env.bottom ? below : above >= env.top + GAP ? above : env.top + GAP;
  const y = Math.round(top + previewBlock);
  const box = { x, y, width: MENU_WIDTH, height };
  const previewRect = { x: 12, y: Math.round(top), width: env.width - 24, height: preview?.height ?? 0 };
  const previewView: View[] = preview
    ? [
        {
          uid: `${uid}/preview`,
          type: 'Other',
          identifier: 'Preview',
          label: preview.label,
          accessible: true,
          rect: previewRect,
          opaque: true,
          draw: ({ ctx }) => {
            ctx.save();
            ctx.beginPath();
            ctx.roundRect(previewRect.x, previewRect.y, previewRect.width, previewRect.height, 13);
            ctx.clip();
            fillRect(ctx, previewRect, theme.background);
            preview.draw(ctx, previewRect);
            ctx.restore();
          },
        },
      ]
    : [];
  const background = theme.appearance === 'dark' ? '#2c2c2e' : '#f2f2f2';
  const buttons: View[] = items.map((item, i) => {
    const r = { x, y: y + i * ROW_HEIGHT, width: MENU_WIDTH, height: ROW_HEIGHT };
    return {
      uid: `${uid}/item/${item.label}`,
      type: 'Button',
      label: item.label,
      identifier: item.label,
      rect: r,
      onTap: () => {
        close();
        item.action();
      },
      draw: ({ ctx }) => {
        if (i > 0) hline(ctx, r.x, r.x + r.width, r.y, theme.separator);
        drawText(ctx, item.label, r.x + 16, r.y + ROW_HEIGHT / 2, { size: 17, color: item.destructive ? DESTRUCTIVE : theme.label });
      },
    };
  });
  return {
    uid: `${uid}/window`,
    type: 'Window',
    rect: env.screen,
    children: [
      { uid: `${uid}/dim`, type: 'Other', rect: env.screen, inTree: false, opaque: true, onTap: close, draw: ({ ctx }) => fillRect(ctx, env.screen, theme.dim) },
      ...previewView,
      {
        uid,
        type: 'Other',
        identifier: 'Context Menu',
        rect: box,
        opaque: true,
        draw: ({ ctx }) => fillRoundRect(ctx, box, 13, background),
        children: buttons,
      },
    ],
  };
}

const EDIT_ITEM_PAD = 14;
const EDIT_HEIGHT = 38;

/**
 * The edit menu (UIEditMenuInteraction) over a text input: a dark bar of items such as Copy, Paste, Select All
 * just above the input (below it near the top of the screen). A tap elsewhere closes it.
 */
export function editMenuWindow(env: Env, uid: string, anchor: Rect, items: readonly MenuItem[], close: () => void): View {
  const widths = items.map((item) => Math.ceil(measure(item.label, 15)) + 2 * EDIT_ITEM_PAD);
  const total = widths.reduce((a, b) => a + b, 0);
  const x = Math.round(Math.min(Math.max(8, anchor.x + anchor.width / 2 - total / 2), env.width - total - 8));
  const above = anchor.y - GAP - EDIT_HEIGHT;
  const y = Math.round(above >= env.top ? above : anchor.y + anchor.height + GAP);
  const box = { x, y, width: total, height: EDIT_HEIGHT };
  let left = x;
  const entries: View[] = items.map((item, i) => {
    const r = { x: left, y, width: widths[i], height: EDIT_HEIGHT };
    left += widths[i];
    return {
      uid: `${uid}/item/${item.label}`,
      type: 'MenuItem',
      label: item.label,
      identifier: item.label,
      rect: r,
      onTap: () => {
        close();
        item.action();
      },
      draw: ({ ctx }) => {
        if (i > 0) fillRect(ctx, { x: r.x, y: r.y + 8, width: 0.5, height: EDIT_HEIGHT - 16 }, '#8e8e93');
        drawText(ctx, item.label, r.x + r.width / 2, r.y + EDIT_HEIGHT / 2, { size: 15, color: '#ffffff', align: 'center' });
      },
    };
  });
  return {
    uid: `${uid}/window`,
    type: 'Window',
    rect: env.screen,
    children: [
      { uid: `${uid}/outside`, type: 'Other', rect: env.screen, inTree: false, opaque: true, onTap: close },
      {
        uid,
        type: 'Menu',
        identifier: 'Edit Menu',
        rect: box,
        opaque: true,
        draw: ({ ctx }) => fillRoundRect(ctx, box, 8, '#333336'),
        children: entries,
      },
    ],
  };
}

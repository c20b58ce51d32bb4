import type { Env } from '../apps/app';
import type { Rect } from '../model';
import { drawGlyph, type GlyphName } from '../../engine/render/glyphs';
import { drawChevron, drawSwitch, drawText, fillRoundRect, hline } from '../../engine/render/paint';
import { measure } from '../../engine/render/measure';
import type { View } from '../../engine/view';
import type { ScrollState } from '../../engine/ui/scroll';

export interface RowIcon {
  color: string;
  glyph?: GlyphName;
  letter?: string;
}

export interface Row {
  /** Stable id within the table (part of the element uid). */
  id: string;
  title: string;
  icon?: RowIcon;
  /** Grey text on the right (e.g. "Off", or the value of an About row). */
  detail?: string;
  /** A switch on the right; tapping the row or the switch calls onToggle. */
  toggle?: { on: boolean; onToggle(): void };
  /** Drill-in rows show a chevron and call onTap. */
  onTap?: () => void;
  identifier?: string;
}

export interface Section {
  id: string;
  header?: string;
  rows: Row[];
}

export const ROW_HEIGHT = 44;
const INSET = 16;
const SECTION_GAP = 24;
const HEADER_HEIGHT = 30;
export const SWITCH_SIZE = { width: 51, height: 31 };

export interface TableOptions {
  uid: string;
  rect: Rect;
  sections: Section[];
  scroll: ScrollState;
  /** Extra space after the content (home indicator). */
  bottomInset: number;
}

/** An inset-grouped UITableView: rounded section cards of 44-pt rows, scrolled by vertical drags. */
export function groupedTable(env: Env, o: TableOptions): View {
  const { theme } = env;
  const contentHeight = tableContentHeight(o.sections) + o.bottomInset;
  const maxScroll = contentHeight - o.rect.height;
  o.scroll.clampTo(maxScroll);
  let y = o.rect.y - o.scroll.offset + 16;
  const x = INSET;
  const width = env.width - 2 * INSET;
  const children: View[] = [];
  for (const section of o.sections) {
    if (section.header) {
      const header = section.header.toUpperCase();
      const hy = y;
      children.push({
        uid: `${o.uid}/section/${section.id}/header`,
        type: 'StaticText',
        label: header,
        value: header,
        traits: ['Header'],
        rect: { x: x + 16, y: hy + 8, width: Math.ceil(measure(header, 13)), height: 18 },
        draw: ({ ctx }) => drawText(ctx, header, x + 16, hy + 17, { size: 13, color: theme.secondaryLabel }),
      });
      y += HEADER_HEIGHT;
    }
    const sectionRect = { x, y, width, height: section.rows.length * ROW_HEIGHT };
    const rows = section.rows.map((row, i) =>
      cell(env, `${o.uid}/row/${row.id}`, row, { x, y: y + i * ROW_HEIGHT, width, height: ROW_HEIGHT }, i === section.rows.length - 1),
    );
    children.push({
      uid: `${o.uid}/section/${section.id}`,
      type: 'Other',
      inTree: false,
      rect: sectionRect,
      draw: ({ ctx }) => fillRoundRect(ctx, sectionRect, 10, theme.cell),
      children: rows,
    });
    y += sectionRect.height + SECTION_GAP;
  }
  return {
    uid: o.uid,
    type: 'Table',
    rect: o.rect,
    clips: true,
    onDrag: (_dx, dy) => o.scroll.drag(dy, maxScroll),
    draw: ({ ctx }) => {
      ctx.fillStyle = theme.groupedBackground;
      ctx.fillRect(o.rect.x, o.rect.y, o.rect.width, o.rect.height);
    },
    children,
  };
}

export function tableContentHeight(sections: Section[]): number {
  let h = 16;
  for (const s of sections) h += (s.header ? HEADER_HEIGHT : 0) + s.rows.length * ROW_HEIGHT + SECTION_GAP;
  return h;
}

function cell(env: Env, uid: string, row: Row, rect: Rect, last: boolean): View {
  const { theme } = env;
  const cy = rect.y + rect.height / 2;
  const titleX = rect.x + (row.icon ? 60 : 16);
  const right = rect.x + rect.width - 16;
  const children: View[] = [];
  const tap = row.toggle ? row.toggle.onToggle : row.onTap;
  if (row.icon) {
    const icon = row.icon;
    const ir = { x: rect.x + 16, y: cy - 14.5, width: 29, height: 29 };
    children.push({
      uid: `${uid}/icon`,
      type: 'Image',
      accessible: false,
      rect: ir,
      draw: ({ ctx }) => {
        fillRoundRect(ctx, ir, 7, icon.color);
        if (icon.glyph) drawGlyph(ctx, icon.glyph, ir.x + 14.5, ir.y + 14.5, 18, '#ffffff', 2);
        else if (icon.letter) drawText(ctx, icon.letter, ir.x + 14.5, ir.y + 15, { size: 16, color: '#ffffff', weight: 'bold', align: 'center' });
      },
    });
  }
  children.push({
    uid: `${uid}/title`,
    type: 'StaticText',
    label: row.title,
    value: row.title,
    rect: { x: titleX, y: cy - 11, width: Math.ceil(measure(row.title, 17)), height: 22 },
    draw: ({ ctx }) => drawText(ctx, row.title, titleX, cy, { size: 17, color: theme.label }),
  });
  let detailRight = right;
  if (row.toggle) {
    const toggle = row.toggle;
    const sr = { x: right - SWITCH_SIZE.width, y: cy - SWITCH_SIZE.height / 2, ...SWITCH_SIZE };
    children.push({
      uid: `${uid}/switch`,
      type: 'Switch',
      label: row.title,
      value: toggle.on ? '1' : '0',
      rect: sr,
      onTap: () => toggle.onToggle(),
      draw: ({ ctx }) => drawSwitch(ctx, sr, toggle.on, theme.switchOn, theme.switchOff),
    });
    detailRight = sr.x - 8;
  } else if (row.onTap) {
    detailRight = right - 18;
  }
  if (row.detail !== undefined) {
    const detail = row.detail;
    // Long values shrink (as UIKit's adjustsFontSizeToFitWidth does) rather than run into the title.
    const room = detailRight - (titleX + measure(row.title, 17) + 12);
    let size = 17;
    while (size > 11 && measure(detail, size) > room) size--;
    const w = Math.ceil(measure(detail, size));
    children.push({
      uid: `${uid}/detail`,
      type: 'StaticText',
      label: detail,
      value: detail,
      rect: { x: detailRight - w, y: cy - 11, width: w, height: 22 },
      draw: ({ ctx }) => drawText(ctx, detail, detailRight, cy, { size, color: theme.secondaryLabel, align: 'right' }),
    });
  }
  return {
    uid,
    type: 'Cell',
    label: row.title,
    identifier: row.identifier,
    rect,
    onTap: tap ? () => tap() : undefined,
    opaque: true,
    draw: ({ ctx }) => {
      if (row.onTap && !row.toggle) drawChevron(ctx, right - 4, cy, theme.tertiaryLabel, 6);
      if (!last) hline(ctx, titleX, rect.x + rect.width, rect.y + rect.height, theme.separator);
    },
    children,
  };
}

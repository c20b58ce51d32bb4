import type { Rect } from '../engine/element';
import { intersect } from '../engine/view';
import { widgetClass, type AndroidView } from './android-view';

/**
 * The accessibility tree of one window as `uiautomator dump` writes it (AOSP AccessibilityNodeInfoDumper): an
 * XML declaration, `<hierarchy rotation="R">`, then one `<node>` per view visible to the user with its
 * attributes in the dumper's order and its bounds in screen PIXELS. No newlines, as the serializer writes it.
 */
export function uiautomatorXml(window: AndroidView, rotation: number, scale: number, screen: Rect): string {
  const out: string[] = [`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">`];
  for (const [i, node] of dumpable(window, screen, undefined).entries()) writeNode(out, node, i, scale);
  out.push('</hierarchy>');
  return out.join('');
}

interface Node {
  view: AndroidView;
  pkg: string;
  bounds: Rect;
  children: Node[];
}

/** The nodes to dump for this view: itself (when in the tree) or its children lifted up; nothing off screen. */
function dumpable(view: AndroidView, clip: Rect, parentPkg: string | undefined): Node[] {
  const pkg = view.pkg ?? parentPkg ?? '';
  const shown = intersect(view.rect, clip);
  const childClip = view.clips ? shown : clip;
  const children = childClip ? (view.children ?? []).flatMap((c) => dumpable(c, childClip, pkg)) : [];
  if (view.inTree === false) return children;
  if (!shown) return [];
  return [{ view, pkg, bounds: shown, children }];
}

const TEXT_CLASSES = new Set(['android.widget.TextView', 'android.widget.Button', 'android.widget.EditText', 'android.view.View']);

function writeNode(out: string[], node: Node, index: number, scale: number): void {
  const v = node.view;
  const cls = widgetClass(v);
  const text = v.text ?? (TEXT_CLASSES.has(cls) && v.type !== 'Other' ? (v.label ?? '') : '');
  const clickable = v.onTap !== undefined && v.enabled !== false;
  const editable = cls === 'android.widget.EditText';
  const b = node.bounds;
  const px = (n: number) => Math.round(n * scale);
  const attrs: [string, string][] = [
    ['index', String(index)],
    ['text', text],
    ['resource-id', v.resourceId ?? ''],
    ['class', cls],
    ['package', node.pkg],
    ['content-desc', v.contentDesc ?? ''],
    ['checkable', String(v.checkable ?? false)],
    ['checked', String(v.checked ?? false)],
    ['clickable', String(clickable)],
    ['enabled', String(v.enabled ?? true)],
    ['focusable', String(v.focusable ?? (clickable || editable))],
    ['focused', String(v.focused ?? false)],
    ['scrollable', String(v.scrollable ?? false)],
    ['long-clickable', String(v.longClickable ?? false)],
    ['password', String(v.password ?? false)],
    ['selected', String(v.selected ?? false)],
    ['bounds', `[${px(b.x)},${px(b.y)}][${px(b.x + b.width)},${px(b.y + b.height)}]`],
  ];
  out.push(`<node ${attrs.map(([k, val]) => `${k}="${escapeXml(val)}"`).join(' ')}`);
  if (node.children.length === 0) {
    out.push(' />');
    return;
  }
  out.push('>');
  node.children.forEach((c, i) => writeNode(out, c, i, scale));
  out.push('</node>');
}

/** What the XML serializer escapes in attribute values (and control characters as character references). */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"\n\r\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c] as string);
}

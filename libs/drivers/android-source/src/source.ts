import { TEXT_INPUT_ROLES, type Rect, type Role, type UiNode } from '@apex/port';
import {
  ElementIds,
  nonEmpty,
  readXmlSource,
  unreadableSource,
  type XmlAttributes,
  type XmlNode,
} from '@apex/ios-source';
import { androidRoleOf } from './roles';

/**
 * An Android accessibility dump → the neutral tree: UiAutomator2's page source (a `hierarchy` root, one element
 * per view named by its class, with `hint`, `displayed`, …) and `uiautomator dump`'s XML (the same root, one
 * `node` element per view with `class`, `text`, `content-desc`, `checked`, `enabled`, `focused`, `selected`,
 * `password` and `bounds="[left,top][right,bottom]"` in pixels; no size on the root) read the same way.
 * Bounds are turned into density-independent pixels with `scale` (= density / 160), the unit Apex uses
 * for Android. Not run against a device here: checked on hand-written samples only.
 */


/** An AlertDialog's panel (`android:id/parentPanel`) and the runtime-permission dialog (`…permissioncontroller:id/grant_dialog`). */
const ALERT_IDS = /:id\/(?:parentPanel|grant_dialog)$/;

function boolAttr(attrs: XmlAttributes, name: string, fallback: boolean): boolean {
  const value = attrs[name];
  return value === undefined ? fallback : value === 'true';
}

const BOUNDS = /^\[(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\]\[(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\]$/;

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `[left,top][right,bottom]` in pixels → a rect in dp. */
export function parseBounds(bounds: string | undefined, scale: number): Rect {
  const match = BOUNDS.exec(bounds ?? '');
  if (!match) return { x: 0, y: 0, width: 0, height: 0 };
  const [left, top, right, bottom] = match.slice(1).map(Number) as [number, number, number, number];
  return {
    x: round2(left / scale),
    y: round2(top / scale),
    width: round2(Math.max(0, right - left) / scale),
    height: round2(Math.max(0, bottom - top) / scale),
  };
}

interface Place {
  indexPath: number[];
  /** 0 = the hierarchy root, 1 = a window. */
  depth: number;
  parentRole?: Role;
}

function roleFor(attrs: XmlAttributes, place: Place): Role {
  if (place.depth === 0) return 'app';
  if (place.depth === 1) return 'window';
  if (ALERT_IDS.test(attrs['resource-id'] ?? '')) return 'alert';
  const role = androidRoleOf(attrs.class ?? '');
  if (role === 'textField' && attrs.password === 'true') return 'secureTextField';
  if (role === 'other' && place.parentRole === 'list') return 'cell';
  // A plain container that is clickable and named only by its content description (a bottom-navigation tab built
  // from a FrameLayout) is a control a screen reader offers: a button, not a layout to skip.
  if (role === 'other' && attrs.clickable === 'true' && nonEmpty(attrs['content-desc']) !== undefined) return 'button';
  return role;
}

function describe(role: Role, attrs: XmlAttributes): Pick<UiNode, 'label' | 'value' | 'placeholder'> {
  const text = nonEmpty(attrs.text);
  const description = nonEmpty(attrs['content-desc']);
  if (TEXT_INPUT_ROLES.has(role)) {
    const placeholder = nonEmpty(attrs.hint);
    // An empty input reports its hint as its text.
    const showingHint = attrs['showing-hint'] === 'true' || (placeholder !== undefined && text === placeholder);
    const value = role === 'secureTextField' || showingHint ? undefined : text;
    return { label: description, value, placeholder };
  }
  if (role === 'switch') {
    const checked = attrs.checked;
    return { label: text ?? description, value: checked === 'true' ? 'on' : checked === 'false' ? 'off' : undefined };
  }
  if (role === 'slider') return { label: description, value: text };
  return { label: text ?? description };
}

function firstTextLabel(nodes: readonly UiNode[]): string | undefined {
  for (const node of nodes) {
    if (node.role === 'text' && node.label !== undefined) return node.label;
    const inner = firstTextLabel(node.children);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function toUiNode(node: XmlNode, place: Place, scale: number, ids: ElementIds, rootBounds: Rect): UiNode {
  const attrs = node.attrs;
  const role = roleFor(attrs, place);
  const bounds = place.depth === 0 ? rootBounds : parseBounds(attrs.bounds, scale);
  const described = describe(role, attrs);
  const children = node.children.map((child, index) =>
    toUiNode(child, { indexPath: [...place.indexPath, index], depth: place.depth + 1, parentRole: role }, scale, ids, rootBounds),
  );
  // A list row is a container whose title is a child text view: it is named by that title, as a screen reader reads it.
  const label = described.label ?? (role === 'cell' ? firstTextLabel(children) : undefined);
  const { value, placeholder } = described;
  const result: UiNode = {
    // The iOS trees' recipe: role, rounded bounds, label and sibling-index path.
    id: ids.of(role, bounds, label, place.indexPath),
    role,
    bounds,
    enabled: boolAttr(attrs, 'enabled', true),
    visible: boolAttr(attrs, 'displayed', true),
    selected: boolAttr(attrs, 'selected', false) || (role === 'button' && boolAttr(attrs, 'checked', false)),
    focused: boolAttr(attrs, 'focused', false),
    children,
  };
  if (label !== undefined) result.label = label;
  if (value !== undefined) result.value = value;
  if (placeholder !== undefined) result.placeholder = placeholder;
  return result;
}

/** The screen's source → the neutral tree rooted at the `hierarchy` element (role `app`). */
export function normalizeAndroidSource(xml: string, deviceId: string, scale: number): UiNode {
  const root = readXmlSource(xml, deviceId).find((n) => n.tag === 'hierarchy');
  if (!root) throw unreadableSource(deviceId, new Error('no hierarchy element in the source'));
  const attrs = root.attrs;
  const width = Number(attrs.width);
  const height = Number(attrs.height);
  // Older servers give the root no size: fall back to the union of its windows.
  const windows = root.children.map((w) => parseBounds(w.attrs.bounds, scale));
  const rootBounds: Rect =
    Number.isFinite(width) && width > 0 && Number.isFinite(height) && height > 0
      ? { x: 0, y: 0, width: round2(width / scale), height: round2(height / scale) }
      : {
          x: 0,
          y: 0,
          width: Math.max(0, ...windows.map((b) => b.x + b.width)),
          height: Math.max(0, ...windows.map((b) => b.y + b.height)),
        };
  return toUiNode(root, { indexPath: [], depth: 0 }, scale, new ElementIds(), rootBounds);
}

import type { SKRSContext2D } from '@napi-rs/canvas';
import type { ElementType, PhoneElement, Rect } from './element';
import type { Theme } from './render/theme';
import type { TextInput } from './ui/text-input';

/** What a view's draw function gets: a context already scaled to points, and the colours. */
export interface Paint {
  ctx: SKRSContext2D;
  theme: Theme;
}

/**
 * One node of what is on screen. The same tree is drawn, turned into the accessibility snapshot and
 * hit-tested, so what an agent reads and where things are drawn cannot disagree.
 * Geometry is in screen points (scroll offsets already applied by the builder).
 */
export interface View {
  uid: string;
  type: ElementType;
  rect: Rect;
  label?: string;
  value?: string;
  identifier?: string;
  placeholder?: string;
  traits?: string[];
  selected?: boolean;
  focused?: boolean;
  enabled?: boolean;
  /** Overrides the default (leaf-like types are accessible, containers are not). */
  accessible?: boolean;
  /** false: drawn only, absent from the accessibility tree (its children are lifted to its parent). */
  inTree?: boolean;
  draw?: (p: Paint) => void;
  /** Tap handler. */
  onTap?: (x: number, y: number) => void;
  /** Scroll handler for drags starting inside this view: the finger moved by dx, dy points. */
  onDrag?: (dx: number, dy: number) => void;
  /** A press held in place (≥ LONG_PRESS_SEC): context menus, edit menus. Without it a long press is a tap. */
  onLongPress?: (x: number, y: number) => void;
  /** Two quick taps (zoom). Without it a double tap is two taps. */
  onDoubleTap?: (x: number, y: number) => void;
  /** A drag that began with a long press (reordering, drag and drop): from the press point to where it lifted. */
  onHoldDrag?: (fromX: number, fromY: number, toX: number, toY: number) => void;
  /** Two fingers spreading (scale > 1) or closing (scale < 1) around (x, y). */
  onPinch?: (scale: number, x: number, y: number) => void;
  /** Focus handler for text inputs (used by `focusElement`); defaults to onTap. */
  onFocus?: () => void;
  onClear?: () => void;
  /** The text this input view edits: a long press on it opens the edit menu (Copy, Paste…). */
  textInput?: TextInput;
  /** Swallows taps that land on it even without a handler (bars, sheets, dimming layers). */
  opaque?: boolean;
  /** Children are clipped to this view's rect (scroll containers). */
  clips?: boolean;
  children?: View[];
}

const ACCESSIBLE_TYPES: ReadonlySet<ElementType> = new Set<ElementType>([
  'Button',
  'StaticText',
  'TextField',
  'SecureTextField',
  'SearchField',
  'TextView',
  'Switch',
  'Slider',
  'Image',
  'Icon',
  'Link',
  'Key',
  'Cell',
  'MenuItem',
]);

export function intersect(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const bt = Math.min(a.y + a.height, b.y + b.height);
  if (r <= x || bt <= y) return null;
  return { x, y, width: r - x, height: bt - y };
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Converts the view tree to accessibility elements; `clip` is the visible area (the screen at the root). */
export function toElements(view: View, clip: Rect | null): PhoneElement[] {
  const shown = clip ? intersect(view.rect, clip) : null;
  const childClip = view.clips ? shown : clip;
  const children = (view.children ?? []).flatMap((c) => toElements(c, childClip));
  if (view.inTree === false) return children;
  const traits = [...(view.traits ?? defaultTraits(view.type))];
  if (view.selected && !traits.includes('Selected')) traits.push('Selected');
  const element: PhoneElement = {
    uid: view.uid,
    type: view.type,
    rect: {
      x: round(view.rect.x),
      y: round(view.rect.y),
      width: round(view.rect.width),
      height: round(view.rect.height),
    },
    enabled: view.enabled ?? true,
    visible: shown !== null,
    accessible: view.accessible ?? ACCESSIBLE_TYPES.has(view.type),
    selected: view.selected ?? false,
    focused: view.focused ?? false,
    traits,
    children,
  };
  if (view.identifier !== undefined) element.identifier = view.identifier;
  if (view.label !== undefined) element.label = view.label;
  if (view.value !== undefined) element.value = view.value;
  if (view.placeholder !== undefined) element.placeholder = view.placeholder;
  return [element];
}

function defaultTraits(type: ElementType): string[] {
  switch (type) {
    case 'Button':
    case 'Icon':
    case 'Cell':
    case 'MenuItem':
      return ['Button'];
    case 'StaticText':
      return ['StaticText'];
    case 'Image':
      return ['Image'];
    case 'Key':
      return ['KeyboardKey'];
    case 'Link':
      return ['Link'];
    case 'Switch':
      return ['Button', 'ToggleButton'];
    case 'SearchField':
      return ['SearchField'];
    default:
      return [];
  }
}

/** Draws the tree in child order (later siblings on top), skipping what lies outside the clip. */
export function paintTree(view: View, p: Paint, clip: Rect): void {
  if (!intersect(view.rect, clip) && !view.children?.length) return;
  if (view.draw && intersect(view.rect, clip)) view.draw(p);
  const children = view.children;
  if (!children?.length) return;
  if (view.clips) {
    const inner = intersect(view.rect, clip);
    if (!inner) return;
    p.ctx.save();
    p.ctx.beginPath();
    p.ctx.rect(inner.x, inner.y, inner.width, inner.height);
    p.ctx.clip();
    for (const c of children) paintTree(c, p, inner);
    p.ctx.restore();
  } else {
    for (const c of children) paintTree(c, p, clip);
  }
}

/** The topmost view at (x, y) that handles taps or swallows them. */
export function hitTest(view: View, x: number, y: number, clip: Rect): View | null {
  const path = hitPath(view, x, y, clip);
  return path ? path[path.length - 1] : null;
}

/**
 * The scrollable view a drag starting at (x, y) moves: the innermost one around whatever the finger lands on
 * (a drag that starts on a table cell scrolls the table).
 */
export function dragTarget(view: View, x: number, y: number, clip: Rect): View | null {
  const path = hitPath(view, x, y, clip, true) ?? [];
  for (let i = path.length - 1; i >= 0; i--) if (path[i].onDrag) return path[i];
  return null;
}

export type GestureHandler = 'onLongPress' | 'onDoubleTap' | 'onPinch' | 'onHoldDrag';

/** The view that handles this gesture at (x, y): the innermost one around whatever the finger lands on. */
export function gestureTarget(view: View, x: number, y: number, clip: Rect, gesture: GestureHandler): View | null {
  const path = hitPath(view, x, y, clip, false, gesture) ?? [];
  for (let i = path.length - 1; i >= 0; i--) if (path[i][gesture]) return path[i];
  return null;
}

/** The path from `view` to the topmost touchable view containing (x, y). */
function hitPath(view: View, x: number, y: number, clip: Rect, drags = false, gesture?: GestureHandler): View[] | null {
  const shown = intersect(view.rect, clip);
  const childClip = view.clips ? shown : clip;
  const children = view.children ?? [];
  if (childClip) {
    for (let i = children.length - 1; i >= 0; i--) {
      const path = hitPath(children[i], x, y, childClip, drags, gesture);
      if (path) return [view, ...path];
    }
  }
  const touchable = view.onTap || view.opaque || (drags && view.onDrag) || (gesture && view[gesture]);
  if (shown && contains(shown, x, y) && touchable) return [view];
  return null;
}

export function findView(view: View, uid: string): View | null {
  if (view.uid === uid) return view;
  for (const c of view.children ?? []) {
    const found = findView(c, uid);
    if (found) return found;
  }
  return null;
}

/** True when the view with this uid is at least partly on screen. */
export function isShown(root: View, uid: string, clip: Rect): boolean {
  const walk = (v: View, c: Rect | null): boolean | null => {
    const shown = c ? intersect(v.rect, c) : null;
    if (v.uid === uid) return shown !== null;
    const childClip = v.clips ? shown : c;
    for (const ch of v.children ?? []) {
      const r = walk(ch, childClip);
      if (r !== null) return r;
    }
    return null;
  };
  return walk(root, clip) === true;
}

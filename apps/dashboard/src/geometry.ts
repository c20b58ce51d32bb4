import type { Point, Rect, UiNode } from './types';

/** The device's screen in points as the frames show it: swapped when the frame is turned the other way. */
export function screenInPoints(screen: { width: number; height: number }, frame?: { width: number; height: number }): {
  width: number;
  height: number;
} {
  if (!frame || frame.width === 0 || frame.height === 0) return screen;
  const frameLandscape = frame.width > frame.height;
  const screenLandscape = screen.width > screen.height;
  return frameLandscape === screenLandscape ? screen : { width: screen.height, height: screen.width };
}

/** A pointer position over the displayed image → device points (rounded to 0.1, clamped to the screen). */
export function toPoints(clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }, screen: { width: number; height: number }): Point {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    x: round(clamp(((clientX - box.left) / box.width) * screen.width, screen.width)),
    y: round(clamp(((clientY - box.top) / box.height) * screen.height, screen.height)),
  };
}

/** A rectangle in points → percentages of the screen, for an outline drawn over the image. */
export function toPercentBox(rect: Rect, screen: { width: number; height: number }): { left: string; top: string; width: string; height: string } {
  const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;
  return {
    left: pct(rect.x, screen.width),
    top: pct(rect.y, screen.height),
    width: pct(rect.width, screen.width),
    height: pct(rect.height, screen.height),
  };
}

export type Gesture =
  | { kind: 'tap'; at: Point }
  | { kind: 'long_press'; at: Point; durationMs: number }
  | { kind: 'swipe'; from: Point; to: Point; durationMs: number };

/** How far (points) a pointer may wander and still tap, and how long a press must last to be a long press. */
export const TAP_SLOP_POINTS = 8;
export const LONG_PRESS_MS = 500;

/** What a press from `down` to `up` (points, event times in ms) means on the phone. */
export function gestureOf(down: Point, up: Point, heldMs: number): Gesture {
  const moved = Math.hypot(up.x - down.x, up.y - down.y);
  if (moved > TAP_SLOP_POINTS) {
    return { kind: 'swipe', from: down, to: up, durationMs: Math.round(Math.min(Math.max(heldMs, 50), 5000)) };
  }
  if (heldMs >= LONG_PRESS_MS) return { kind: 'long_press', at: down, durationMs: Math.round(Math.min(heldMs, 10_000)) };
  return { kind: 'tap', at: down };
}

/** A wheel turn (pixels, positive = down) at a point → a swipe that scrolls the content the same way. */
export function wheelSwipe(at: Point, deltaY: number, screen: { width: number; height: number }): { from: Point; to: Point } {
  const distance = Math.min(Math.abs(deltaY), screen.height * 0.6);
  const half = distance / 2;
  const y = Math.min(Math.max(at.y, half + 1), screen.height - half - 1);
  const sign = deltaY > 0 ? 1 : -1;
  return { from: { x: at.x, y: Math.round(y + sign * half) }, to: { x: at.x, y: Math.round(y - sign * half) } };
}

/** The smallest node whose bounds hold the point (the one a person means when pointing there). */
export function nodeAt(root: UiNode | undefined, point: Point): UiNode | undefined {
  let best: UiNode | undefined;
  const visit = (node: UiNode) => {
    const b = node.bounds;
    if (point.x >= b.x && point.x <= b.x + b.width && point.y >= b.y && point.y <= b.y + b.height) {
      if (!best || b.width * b.height <= best.bounds.width * best.bounds.height) best = node;
    }
    for (const child of node.children ?? []) visit(child);
  };
  if (root) visit(root);
  return best;
}

/** The MCP call that acts on a node: by its ref when it has one, else at its centre. */
export function mcpCallFor(node: UiNode): string {
  if (node.ref) return `tap ${JSON.stringify({ ref: node.ref })}`;
  const c = node.center ?? { x: node.bounds.x + node.bounds.width / 2, y: node.bounds.y + node.bounds.height / 2 };
  return `tap ${JSON.stringify({ x: Math.round(c.x * 10) / 10, y: Math.round(c.y * 10) / 10 })}`;
}

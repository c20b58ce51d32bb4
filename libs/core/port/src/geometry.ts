/** All coordinates above the driver layer are in points (iOS) / density-independent pixels (Android). */
export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Rect extends Point, Size {}

/** The screen in points, and how many pixels one point is. */
export interface ScreenGeometry extends Size {
  scale: number;
}

export function centerOf(rect: Rect): Point {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

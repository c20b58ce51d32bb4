import { gestureOf, mcpCallFor, nodeAt, screenInPoints, toPercentBox, toPoints, wheelSwipe } from './geometry';
import type { UiNode } from './types';

const screen = { width: 393, height: 852 };

describe('pointer positions to device points', () => {
  it('scales from the displayed image to the screen in points', () => {
    // The image shown at 262×568 CSS px from (100, 50): its centre is the screen's centre.
    const box = { left: 100, top: 50, width: 262, height: 568 };
    expect(toPoints(100 + 131, 50 + 284, box, screen)).toEqual({ x: 196.5, y: 426 });
    expect(toPoints(100, 50, box, screen)).toEqual({ x: 0, y: 0 });
    expect(toPoints(99, 700, box, screen)).toEqual({ x: 0, y: 852 });
  });

  it('turns the screen with the frame (landscape frames of a portrait-described phone)', () => {
    expect(screenInPoints(screen, { width: 852, height: 393 })).toEqual({ width: 852, height: 393 });
    expect(screenInPoints(screen, { width: 1179, height: 2556 })).toEqual(screen);
    expect(screenInPoints(screen)).toEqual(screen);
  });

  it('draws outlines in percentages of the screen', () => {
    expect(toPercentBox({ x: 39.3, y: 0, width: 196.5, height: 426 }, screen)).toEqual({ left: '10.000%', top: '0.000%', width: '50.000%', height: '50.000%' });
  });
});

describe('what a press means', () => {
  it('is a tap when short and still, a long press when held, a swipe when it moves', () => {
    expect(gestureOf({ x: 10, y: 10 }, { x: 12, y: 13 }, 120)).toEqual({ kind: 'tap', at: { x: 10, y: 10 } });
    expect(gestureOf({ x: 10, y: 10 }, { x: 10, y: 10 }, 900)).toEqual({ kind: 'long_press', at: { x: 10, y: 10 }, durationMs: 900 });
    expect(gestureOf({ x: 200, y: 700 }, { x: 200, y: 200 }, 250)).toEqual({ kind: 'swipe', from: { x: 200, y: 700 }, to: { x: 200, y: 200 }, durationMs: 250 });
    // A flick shorter than the swipe minimum still swipes, at the shortest allowed duration.
    expect(gestureOf({ x: 200, y: 700 }, { x: 200, y: 200 }, 5)).toMatchObject({ kind: 'swipe', durationMs: 50 });
  });

  it('turns a wheel down into a swipe up that stays on the screen', () => {
    const swipe = wheelSwipe({ x: 196, y: 840 }, 300, screen);
    expect(swipe.from.y).toBeGreaterThan(swipe.to.y);
    expect(swipe.from.y - swipe.to.y).toBe(300);
    expect(swipe.from.y).toBeLessThan(852);
    const up = wheelSwipe({ x: 196, y: 400 }, -100, screen);
    expect(up.to.y).toBeGreaterThan(up.from.y);
  });
});

describe('inspecting', () => {
  const icon: UiNode = { id: 'b', role: 'icon', label: 'Settings', bounds: { x: 298, y: 382, width: 76, height: 84 }, center: { x: 336, y: 424 } };
  const root: UiNode = { id: 'a', role: 'app', bounds: { x: 0, y: 0, ...screen }, children: [icon] };

  it('picks the smallest node under the pointer', () => {
    expect(nodeAt(root, { x: 330, y: 400 })?.id).toBe('b');
    expect(nodeAt(root, { x: 10, y: 10 })?.id).toBe('a');
    expect(nodeAt(undefined, { x: 10, y: 10 })).toBeUndefined();
  });

  it('offers the MCP call by ref when the node has one, else by its centre', () => {
    expect(mcpCallFor({ ...icon, ref: 'e16' })).toBe('tap {"ref":"e16"}');
    expect(mcpCallFor(icon)).toBe('tap {"x":336,"y":424}');
  });
});

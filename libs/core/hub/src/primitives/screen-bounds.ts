import { invalidArgument, type FieldIssue } from '@apex/errors';
import type { Point, ScreenGeometry } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';

/** Whether `value` lies in [0, size); written so that NaN lies nowhere. */
function within(value: number, size: number): boolean {
  return value >= 0 && value < size;
}

function issuesFor(point: Point, screen: ScreenGeometry, path: string): FieldIssue[] {
  const prefix = path ? `${path}.` : '';
  const issues: FieldIssue[] = [];
  if (!within(point.x, screen.width)) {
    issues.push({ path: `${prefix}x`, message: `must be from 0 to below ${screen.width} (the screen width in points)` });
  }
  if (!within(point.y, screen.height)) {
    issues.push({ path: `${prefix}y`, message: `must be from 0 to below ${screen.height} (the screen height in points)` });
  }
  return issues;
}

/**
 * Checks that points lie on the device's screen. A point that misses the cached geometry is checked once
 * more against a fresh one (the phone may have rotated) before `invalid_argument`.
 */
export async function assertOnScreen(
  hub: DeviceHub,
  deviceId: string,
  points: { point: Point; path: string }[],
): Promise<ScreenGeometry> {
  let screen = await hub.screen(deviceId);
  let issues = points.flatMap(({ point, path }) => issuesFor(point, screen, path));
  if (issues.length === 0) return screen;
  hub.invalidateScreen(deviceId);
  screen = await hub.screen(deviceId);
  issues = points.flatMap(({ point, path }) => issuesFor(point, screen, path));
  if (issues.length === 0) return screen;
  throw invalidArgument(
    `Point outside the screen of device ${deviceId} (${screen.width}×${screen.height} points): ${issues
      .map((i) => `${i.path} ${i.message}`)
      .join('; ')}.`,
    issues,
    'Use coordinates in points, from a points-scaled screenshot or the UI tree bounds.',
  );
}

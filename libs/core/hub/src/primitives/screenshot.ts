import sharp from 'sharp';
import type { ScreenGeometry, RawScreenshot } from '@apex/port';
import type { DeviceHub } from '../hub/device-hub';
import { ScreenshotOptionsSchema } from './schemas';
import { parseInput } from './validate';

export interface ScreenshotOptions {
  format?: 'png' | 'jpeg';
  scale?: 'points' | 'native';
  maxWidth?: number;
  quality?: number;
}

export interface Screenshot {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
  /** Image pixels. */
  width: number;
  height: number;
  /** Image pixels per point: 1 for a points-scaled image, so a pixel (x, y) is the tap point (x, y). */
  pixelsPerPoint: number;
}

async function captureRaw(hub: DeviceHub, id: string): Promise<RawScreenshot & { screen: ScreenGeometry }> {
  const raw = await hub.run(id, 'take a screenshot', (driver, signal) => driver.screenshot(signal), { slow: true });
  // The capture is the truth about the current orientation: keep the cached geometry in step with it.
  const screen = { width: Math.round(raw.width / raw.scale), height: Math.round(raw.height / raw.scale), scale: raw.scale };
  hub.noteScreen(id, screen);
  return { ...raw, screen };
}

/** The native-resolution PNG and the screen geometry, for perception. */
export async function captureScreen(hub: DeviceHub, deviceId?: string): Promise<RawScreenshot & { screen: ScreenGeometry }> {
  return captureRaw(hub, hub.resolve(deviceId));
}

/** A screenshot as PNG or JPEG, at native pixels or scaled to points (default), optionally capped in width. */
export async function takeScreenshot(hub: DeviceHub, deviceId?: string, options: ScreenshotOptions = {}): Promise<Screenshot> {
  const parsed = parseInput(ScreenshotOptionsSchema, options ?? {}, 'screenshot options');
  const id = hub.resolve(deviceId);
  const raw = await captureRaw(hub, id);
  const format = parsed.format ?? 'png';
  let width = parsed.scale === 'native' ? raw.width : raw.screen.width;
  if (parsed.maxWidth !== undefined) width = Math.min(width, parsed.maxWidth);
  const height = Math.max(1, Math.round((raw.height * width) / raw.width));
  const pixelsPerPoint = width / raw.screen.width;
  if (format === 'png' && width === raw.width) {
    return { data: raw.png, mimeType: 'image/png', width: raw.width, height: raw.height, pixelsPerPoint };
  }
  let image = sharp(raw.png);
  if (width !== raw.width) image = image.resize(width, height, { fit: 'fill' });
  const data =
    format === 'png'
      ? await image.png().toBuffer()
      : await image.flatten({ background: '#ffffff' }).jpeg({ quality: parsed.quality ?? 80 }).toBuffer();
  return { data, mimeType: format === 'png' ? 'image/png' : 'image/jpeg', width, height, pixelsPerPoint };
}

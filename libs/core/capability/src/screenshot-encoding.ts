import type Sharp from 'sharp';
import type { CapturedScreen } from '@apex/hub';
import { sharp } from '@apex/perception';
import { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_SIDE, MIN_SCREENSHOT_WIDTH } from './limits';

export const SCREENSHOT_FORMATS = ['jpeg', 'png'] as const;
export type ScreenshotFormat = (typeof SCREENSHOT_FORMATS)[number];
/** `points`: one image pixel per point; `native`: the device pixels (`scale` pixels per point). */
export const SCREENSHOT_RESOLUTIONS = ['points', 'native'] as const;
export type ScreenshotResolution = (typeof SCREENSHOT_RESOLUTIONS)[number];

/** What a screenshot is when the caller says nothing: small, and its pixels are tap points. */
export const SCREENSHOT_DEFAULTS = { format: 'jpeg', resolution: 'points' } as const satisfies {
  format: ScreenshotFormat;
  resolution: ScreenshotResolution;
};
/** JPEG qualities tried in turn; below the last one the image gets narrower instead. */
const JPEG_QUALITIES = [80, 60, 40] as const;
/** Each narrower attempt keeps at most this share of the width (bytes shrink with the pixel count). */
const MAX_SHRINK = 0.9;

export interface ScreenshotRequest {
  format: ScreenshotFormat;
  /** `points`: one image pixel per point; `native`: the device pixels. */
  resolution: ScreenshotResolution;
  /** At most this many pixels wide (never upscaled). */
  maxWidth?: number;
}

export interface ScreenshotBudget {
  /** Encoded bytes, at most. */
  maxBytes: number;
  /** Pixels on either side, at most. */
  maxSide: number;
}

export interface EncodedScreenshot {
  data: Buffer;
  format: ScreenshotFormat;
  mimeType: 'image/jpeg' | 'image/png';
  /** Image pixels. */
  width: number;
  height: number;
  /** Image pixels per point: 1 for a points-scaled image, so a pixel (x, y) is the tap point (x, y). */
  pixelsPerPoint: number;
}

interface Pixels {
  data: Buffer;
  info: Sharp.OutputInfo;
}

/**
 * Resampling kernel for the shrink to points: on screens (flat colours, text) it looks like lanczos3 at this
 * size and costs a fraction (measured in tools/bench, operations section).
 */
const RESIZE_KERNEL = 'linear';
/** Baseline JPEG, none of the optional (slow) passes: the image is read once by a model and thrown away. */
const JPEG_OPTIONS = {
  mozjpeg: false,
  optimiseCoding: false,
  trellisQuantisation: false,
  overshootDeringing: false,
  optimiseScans: false,
} as const satisfies Sharp.JpegOptions;

/**
 * Encodes one capture as asked, then smaller until it fits the budget: lower JPEG quality first, then a
 * narrower image (PNG only gets narrower). The capture is never taken again, so `width` may end up below what
 * was asked; `pixelsPerPoint` always says how the pixels map to points. The native PNG, when it is what was
 * asked and fits, is handed back untouched (never decoded). The first try of a JPEG at the capture's own size is one
 * libvips pipeline from the PNG (no raw pixels in between: 5.5 → 4.1 ms for 393×852 here); every other try starts
 * from one shared decode to RGB, so a capture is decoded at most twice however many tries the budget takes.
 */
export async function encodeScreenshot(
  shot: CapturedScreen,
  request: ScreenshotRequest,
  budget: ScreenshotBudget = { maxBytes: MAX_SCREENSHOT_BYTES, maxSide: MAX_SCREENSHOT_SIDE },
): Promise<EncodedScreenshot> {
  const sideCap = Math.floor((budget.maxSide * shot.width) / Math.max(shot.width, shot.height));
  let width = Math.min(request.resolution === 'native' ? shot.width : shot.screen.width, request.maxWidth ?? Infinity, sideCap);
  width = Math.max(1, Math.min(shot.width, Math.round(width)));
  let qualityStep = 0;
  let pixels: Promise<Pixels> | undefined;
  for (;;) {
    const height = Math.max(1, Math.round((shot.height * width) / shot.width));
    const quality = JPEG_QUALITIES[qualityStep];
    const fullSize = width === shot.width;
    const data =
      fullSize && request.format === 'png'
        ? shot.png
        : fullSize && qualityStep === 0
          ? await sharp(shot.png).removeAlpha().jpeg({ ...JPEG_OPTIONS, quality }).toBuffer()
          : await encode(await (pixels ??= decode(shot.png)), request.format, fullSize ? undefined : { width, height }, quality);
    const mimeType = request.format === 'png' ? 'image/png' : 'image/jpeg';
    const result = { data, format: request.format, mimeType, width, height, pixelsPerPoint: width / shot.screen.width } as const;
    if (data.length <= budget.maxBytes) return result;
    if (request.format === 'jpeg' && qualityStep < JPEG_QUALITIES.length - 1) {
      qualityStep += 1;
      continue;
    }
    // Unreachable with the default budget: 64 × 2,000 pixels stay far below 700 KB in either format.
    if (width <= MIN_SCREENSHOT_WIDTH) return result;
    const shrink = Math.min(MAX_SHRINK, Math.sqrt(budget.maxBytes / data.length));
    width = Math.max(MIN_SCREENSHOT_WIDTH, Math.floor(width * shrink));
  }
}

/**
 * The decode resizes and retries start from: opaque RGB (a phone's screen has no transparency). Without the alpha
 * channel the resize needs no premultiplication, which in one PNG → resize → JPEG pipeline costs more than the
 * decode itself.
 */
async function decode(png: Buffer): Promise<Pixels> {
  return sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** The decoded capture, resized when `size` is given, encoded. */
async function encode({ data, info }: Pixels, format: ScreenshotFormat, size: { width: number; height: number } | undefined, quality: number): Promise<Buffer> {
  const source = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const image = size ? source.resize(size.width, size.height, { fit: 'fill', kernel: RESIZE_KERNEL }) : source;
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ ...JPEG_OPTIONS, quality }).toBuffer();
}

/** How image pixels map to tap points, in words a model can use. */
export function describePixelMapping(pixelsPerPoint: number): string {
  if (Math.abs(pixelsPerPoint - 1) < 1e-6) return '1 image pixel = 1 point: tap the pixel coordinates you see';
  const ratio = Number(pixelsPerPoint.toFixed(3));
  return `1 point = ${ratio} image pixels: divide image coordinates by ${ratio} to get tap points`;
}

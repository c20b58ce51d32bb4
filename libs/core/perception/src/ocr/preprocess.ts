import type { Rect } from '@apex/port';
import { sharp } from '../sharp';
import type { ScreenImage } from '../screen-image';

/** Grey pixels ready for OCR (one byte each, row by row) and how to map them back to points. */
export interface PreparedPixels {
  gray: Uint8Array;
  width: number;
  height: number;
  /** Prepared-image pixels per point. */
  scale: number;
  /** Where the prepared image's top-left corner is, in points. */
  originX: number;
  originY: number;
  /** Whether the image was inverted (a dark screen). */
  inverted: boolean;
}

/** The same, encoded as an image the OCR engine reads. */
export interface PreparedImage extends Omit<PreparedPixels, 'gray' | 'width' | 'height'> {
  image: Buffer;
}

/**
 * Pixels per point OCR reads a full screen at: 17 pt body text becomes ~25 px tall, well inside what
 * tesseract reads reliably, at ~20 % less work than 2 px/pt on a text-dense page (same words found).
 */
const FULL_SCREEN_OCR_SCALE = 1.5;
/** Small crops are read larger: tiny text gains more from upscaling than it costs. */
const SMALL_CROP_OCR_SCALE = 3;
const SMALL_CROP_POINTS = 120;
/** Tesseract recognizes dark text on a light background best. */
const DARK_MEAN_LUMINANCE = 110;

/**
 * Crops (to `region`, in points), scales, greys (darkest channel) and — on a dark screen — inverts a
 * screenshot for OCR.
 * `pixelScale` is the screenshot's pixels per point.
 */
export async function prepareForOcr(capture: ScreenImage, region?: Rect): Promise<PreparedImage> {
  const { gray, width, height, ...mapping } = await preparePixels(capture, region);
  return { image: grayImage(gray, width, height), ...mapping };
}

/**
 * A grey image as the OCR engine reads it: a binary PGM (a 15-byte header before the pixels, which the engine's
 * image library reads as they are) — no compression and no decode, where a PNG was compressed per text band
 * only to be decoded again at once.
 */
export function grayImage(gray: Uint8Array, width: number, height: number): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'ascii'), gray]);
}

/** `prepareForOcr` without the encoding: the pixels themselves (the capture's decode is shared, not repeated). */
export async function preparePixels(capture: ScreenImage, region?: Rect): Promise<PreparedPixels> {
  const pixelScale = capture.scale;
  const { width: imageWidth, height: imageHeight } = await capture.pixels();
  const crop = pixelCrop(region, pixelScale, imageWidth, imageHeight);
  const isSmall = crop.height / pixelScale < SMALL_CROP_POINTS || crop.width / pixelScale < SMALL_CROP_POINTS;
  const scale = region && isSmall ? SMALL_CROP_OCR_SCALE : FULL_SCREEN_OCR_SCALE;
  const width = Math.max(1, Math.round((crop.width / pixelScale) * scale));
  const height = Math.max(1, Math.round((crop.height / pixelScale) * scale));

  // From the capture's pixels decoded without alpha (a screen is opaque): resizing RGBA premultiplies in
  // floating point, which costs more than the decode.
  const { data, info } = await (await capture.pipeline())
    .extract(crop)
    .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const inverted = meanLuminance(data, info.channels) < DARK_MEAN_LUMINANCE;
  // Light screens: the darkest channel (tinted text and buttons turn dark). Dark screens: luminance, inverted
  // (the darkest channel would sink tinted text on black into the background).
  const gray = toGray(data, info.channels, inverted ? 'luminance' : 'darkest');
  if (inverted) for (let i = 0; i < gray.length; i++) gray[i] = 255 - gray[i];
  await invertDarkPanels(gray, info.width, info.height, scale);

  return {
    gray,
    width: info.width,
    height: info.height,
    scale: info.width / (crop.width / pixelScale),
    originX: crop.left / pixelScale,
    originY: crop.top / pixelScale,
    inverted,
  };
}

function pixelCrop(region: Rect | undefined, pixelScale: number, width: number, height: number) {
  if (!region) return { left: 0, top: 0, width, height };
  const left = clamp(Math.floor(region.x * pixelScale), 0, width - 1);
  const top = clamp(Math.floor(region.y * pixelScale), 0, height - 1);
  const right = clamp(Math.ceil((region.x + region.width) * pixelScale), left + 1, width);
  const bottom = clamp(Math.ceil((region.y + region.height) * pixelScale), top + 1, height);
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Grey from RGB: 'luminance' (Rec. 709 in linear light), or the 'darkest' of R, G and B, with which a tinted
 * button (blue, green, red) turns dark, so its white label reads like white text on a dark panel, and tinted
 * text on white (links) turns dark too. Black, white and greys come out the same either way.
 */
function toGray(data: Buffer, channels: number, mode: 'luminance' | 'darkest'): Uint8Array {
  const out = new Uint8Array(data.length / channels);
  if (channels < 3) {
    for (let i = 0, j = 0; j < out.length; i += channels, j++) out[j] = data[i];
    return out;
  }
  for (let i = 0, j = 0; j < out.length; i += channels, j++) {
    if (mode === 'darkest') {
      out[j] = Math.min(data[i], data[i + 1], data[i + 2]);
    } else {
      const linear = 0.2126 * SRGB_TO_LINEAR[data[i]] + 0.7152 * SRGB_TO_LINEAR[data[i + 1]] + 0.0722 * SRGB_TO_LINEAR[data[i + 2]];
      out[j] = LINEAR_TO_SRGB[Math.round(linear * 4095)];
    }
  }
  return out;
}

/** sRGB ↔ linear light, as tables: luminance is a weighted sum in linear light (so tints keep their weight). */
const SRGB_TO_LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const LINEAR_TO_SRGB = Uint8Array.from({ length: 4096 }, (_, i) => {
  const c = i / 4095;
  return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
});

/** Grey below this counts as dark when looking for panels. */
const DARK_LEVEL = 128;
/** The panel search runs at this coarse resolution (pixels per point). */
const PANEL_MAP_SCALE = 0.5;
/** A panel is at least this big (points) and mostly solid; letters, even bold titles, are smaller or sparser. */
const MIN_PANEL_WIDTH = 30;
const MIN_PANEL_HEIGHT = 24;
const MIN_PANEL_FILL = 0.6;

/**
 * Inverts dark panels on a light screen (buttons, bars, banners) so their light text becomes dark text on a
 * light ground like the rest: OCR's page layout otherwise takes a button with white text for a picture.
 * Panels are the large, solid dark connected regions of a coarse copy of the image; the whole box of each
 * is inverted, text included.
 */
async function invertDarkPanels(gray: Uint8Array, width: number, height: number, pixelsPerPoint: number): Promise<void> {
  const factor = PANEL_MAP_SCALE / pixelsPerPoint;
  const mapWidth = Math.max(1, Math.round(width * factor));
  const mapHeight = Math.max(1, Math.round(height * factor));
  const coarse = await sharp(Buffer.from(gray.buffer, gray.byteOffset, gray.length), { raw: { width, height, channels: 1 } })
    .resize(mapWidth, mapHeight, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const dark = new Uint8Array(mapWidth * mapHeight);
  for (let i = 0; i < dark.length; i++) dark[i] = coarse.data[i * coarse.info.channels] < DARK_LEVEL ? 1 : 0;
  for (const box of solidDarkRegions(dark, mapWidth, mapHeight)) {
    const x0 = Math.floor(box.x0 / factor);
    const y0 = Math.floor(box.y0 / factor);
    const x1 = Math.min(width, Math.ceil((box.x1 + 1) / factor));
    const y1 = Math.min(height, Math.ceil((box.y1 + 1) / factor));
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) gray[y * width + x] = 255 - gray[y * width + x];
  }
}

/** Bounding boxes (map pixels, inclusive) of the connected dark regions that are big and solid enough. */
function solidDarkRegions(dark: Uint8Array, width: number, height: number) {
  const label = new Int32Array(dark.length).fill(-1);
  const boxes: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const stack: number[] = [];
  const minWidth = MIN_PANEL_WIDTH * PANEL_MAP_SCALE;
  const minHeight = MIN_PANEL_HEIGHT * PANEL_MAP_SCALE;
  for (let start = 0; start < dark.length; start++) {
    if (!dark[start] || label[start] >= 0) continue;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    let area = 0;
    label[start] = start;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % width;
      const y = (i - x) / width;
      area += 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1];
      for (const n of neighbours) {
        if (n >= 0 && dark[n] && label[n] < 0) {
          label[n] = start;
          stack.push(n);
        }
      }
    }
    const boxWidth = x1 - x0 + 1;
    const boxHeight = y1 - y0 + 1;
    if (boxWidth >= minWidth && boxHeight >= minHeight && area / (boxWidth * boxHeight) >= MIN_PANEL_FILL) {
      boxes.push({ x0, y0, x1, y1 });
    }
  }
  return boxes;
}

/** Every this many pixels is enough to tell a dark screen from a light one. */
const LUMINANCE_SAMPLE_STEP = 7;

/** The mean luminance (as `toGray` computes it) of a sample of the pixels. */
function meanLuminance(data: Buffer, channels: number): number {
  const pixels = data.length / channels;
  if (pixels === 0) return 255;
  if (channels < 3) {
    let sum = 0;
    let n = 0;
    for (let p = 0; p < pixels; p += LUMINANCE_SAMPLE_STEP, n++) sum += data[p * channels];
    return sum / n;
  }
  let sum = 0;
  let n = 0;
  for (let p = 0; p < pixels; p += LUMINANCE_SAMPLE_STEP, n++) {
    const i = p * channels;
    const linear = 0.2126 * SRGB_TO_LINEAR[data[i]] + 0.7152 * SRGB_TO_LINEAR[data[i + 1]] + 0.0722 * SRGB_TO_LINEAR[data[i + 2]];
    sum += LINEAR_TO_SRGB[Math.round(linear * 4095)];
  }
  return sum / n;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Cuts a prepared (grey, light background) screen into bands of text: runs of rows with ink, between blank
 * rows. A band's image is its rows with the same blank padding above and below wherever it sits, so the band
 * a scroll moved has the very same pixels (and hash) as before, and reading it alone gives the same words.
 */

/** A row whose lightest and darkest pixels differ by at most this is blank (flat or two close greys). */
const BLANK_ROW_RANGE = 24;
/** Runs of ink rows shorter than this hold no readable text (separator lines, borders). */
const MIN_BAND_ROWS = 6;
/** Blank rows around each band's ink: OCR reads text poorly when it touches the image's edge. */
const BAND_PADDING_ROWS = 10;

export interface TextBand {
  /** The band's image, `width` pixels wide: padding, the ink rows, padding. */
  gray: Uint8Array;
  height: number;
  /** The prepared image's row at the top of the band's image (its padding; may be negative). */
  imageTop: number;
}

export function textBands(gray: Uint8Array, width: number, height: number): TextBand[] {
  const bands: TextBand[] = [];
  let top = -1;
  for (let y = 0; y <= height; y++) {
    const ink = y < height && !isBlankRow(gray, width, y);
    if (ink && top < 0) top = y;
    if (!ink && top >= 0) {
      if (y - top >= MIN_BAND_ROWS) bands.push(bandOf(gray, width, height, top, y));
      top = -1;
    }
  }
  return bands;
}

function isBlankRow(gray: Uint8Array, width: number, y: number): boolean {
  let min = 255;
  let max = 0;
  for (let i = y * width, end = i + width; i < end; i++) {
    const v = gray[i];
    if (v < min) min = v;
    if (v > max) max = v;
    if (max - min > BLANK_ROW_RANGE) return false;
  }
  return true;
}

/** Rows [top, bottom), padded with copies of the blank row just above and just below (white at the edges). */
function bandOf(gray: Uint8Array, width: number, height: number, top: number, bottom: number): TextBand {
  const rows = bottom - top + 2 * BAND_PADDING_ROWS;
  const out = new Uint8Array(rows * width);
  const above = top > 0 ? gray.subarray((top - 1) * width, top * width) : undefined;
  const below = bottom < height ? gray.subarray(bottom * width, (bottom + 1) * width) : undefined;
  for (let r = 0; r < BAND_PADDING_ROWS; r++) {
    if (above) out.set(above, r * width);
    else out.fill(255, r * width, (r + 1) * width);
    const b = BAND_PADDING_ROWS + bottom - top + r;
    if (below) out.set(below, b * width);
    else out.fill(255, b * width, (b + 1) * width);
  }
  out.set(gray.subarray(top * width, bottom * width), BAND_PADDING_ROWS * width);
  return { gray: out, height: rows, imageTop: top - BAND_PADDING_ROWS };
}

/**
 * The column runs of a band that hold ink, `[start, end)` in the prepared image's pixels: where a pixel of the
 * band's rows differs from the blank row above them (its padding) by more than a blank row's own range.
 */
export function inkColumnRuns(band: TextBand, width: number): [number, number][] {
  const runs: [number, number][] = [];
  const firstRow = BAND_PADDING_ROWS;
  const lastRow = band.height - BAND_PADDING_ROWS;
  const background = band.gray.subarray((firstRow - 1) * width, firstRow * width);
  let start = -1;
  for (let x = 0; x <= width; x++) {
    let ink = false;
    for (let y = firstRow; x < width && y < lastRow && !ink; y++) ink = Math.abs(band.gray[y * width + x] - background[x]) > BLANK_ROW_RANGE;
    if (ink && start < 0) start = x;
    if (!ink && start >= 0) {
      runs.push([start, x]);
      start = -1;
    }
  }
  return runs;
}

/** The band's ink rows, `[top, bottom)` in the prepared image's rows. */
export function inkRows(band: TextBand): [number, number] {
  return [band.imageTop + BAND_PADDING_ROWS, band.imageTop + band.height - BAND_PADDING_ROWS];
}

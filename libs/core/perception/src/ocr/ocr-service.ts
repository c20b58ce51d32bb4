import { createHash } from 'node:crypto';
import { hasWordCharacters, type Rect } from '@apex/port';
import { ScreenImage } from '../screen-image';
import { intersects, unionOf } from '../geometry';
import { LruCache } from './lru-cache';
import type { EnginePage, OcrLine, OcrPage, OcrRecognizer, OcrWord } from './ocr-types';
import { grayImage, prepareForOcr, preparePixels, type PreparedPixels } from './preprocess';
import { inkColumnRuns, inkRows, textBands, type TextBand } from './text-bands';

/** Words closer than this many line-heights apart belong to one line; farther ones start a new one. */
const MAX_WORD_GAP_IN_LINE_HEIGHTS = 1.5;
/** Tesseract's confidence (0..100) below which a "word" is noise (glyphs, separators). */
const MIN_WORD_CONFIDENCE = 20;
/** Bands of text remembered (their words), across screenshots: a scrolled list shows most of them again. */
const BANDS_REMEMBERED = 512;

export interface OcrStats {
  /** Screenshots (or regions) read: each reads the bands it has not seen before. */
  recognitions: number;
  /** Requests answered from the cache. */
  cacheHits: number;
  /** Bands of a full screen handed to the recognizer. */
  bandsRead: number;
  /** Bands of a full screen answered with the words read earlier from identical pixels. */
  bandsReused: number;
  /** Bands of a full screen not read: their ink lies wholly where the caller said it knows the screen. */
  bandsSkipped: number;
}

/** A cached or in-flight result, and who still waits for it (a caller without a signal always does). */
interface Entry {
  page: Promise<OcrPage>;
  controller: AbortController;
  waiters: number;
}

/**
 * Screenshot → words and lines in points. Results are cached per screenshot content hash and region (bounded
 * LRU; concurrent identical requests share one recognition). A region is answered from a cached full-screen
 * result when there is one, else by recognizing only the cropped region. A caller's signal ends its own wait;
 * the shared recognition is dropped (if it has not started) only once every caller waiting for it has given up.
 *
 * A full screen is read band by band (rows of text between blank rows, see text-bands.ts), each band alone and
 * remembered by the hash of its pixels: after a scroll only the bands that came into view are read, and the
 * merged words are the same as reading every band afresh (each band's words depend on its pixels only).
 */
export class OcrService {
  private readonly cache: LruCache<string, Entry>;
  private readonly bands = new LruCache<string, Promise<EnginePage>>(BANDS_REMEMBERED);
  private readonly counters: OcrStats = { recognitions: 0, cacheHits: 0, bandsRead: 0, bandsReused: 0, bandsSkipped: 0 };

  constructor(
    private readonly recognizer: OcrRecognizer,
    cacheSize = 32,
  ) {
    this.cache = new LruCache(Math.max(1, cacheSize));
  }

  stats(): OcrStats {
    return { ...this.counters };
  }

  /**
   * `pixelScale`: the screenshot's pixels per point. `region` in points. `known` (a full screen only, points):
   * where the caller already knows what the screen shows (see `regionsTheTreeTells`); a band whose ink lies
   * wholly inside them is not read, so the page may lack lines there — the caller's to tell.
   */
  async read(image: ScreenImage | Buffer, pixelScale: number, region?: Rect, signal?: AbortSignal, known?: readonly Rect[]): Promise<OcrPage> {
    signal?.throwIfAborted();
    const capture = ScreenImage.of(image, pixelScale);
    const hash = capture.hash;
    const fullKey = `${hash}:full`;
    const full = live(this.cache.get(fullKey));
    if (full) {
      this.counters.cacheHits += 1;
      const page = await follow(full, signal);
      return region ? withinRegion(page, region) : page;
    }
    const skips = !region && known !== undefined && known.length > 0;
    const key = region ? `${hash}:${regionKey(region)}` : skips ? `${hash}:lacking:${knownKey(known)}` : fullKey;
    const cached = live(this.cache.get(key));
    if (cached) {
      this.counters.cacheHits += 1;
      return follow(cached, signal);
    }
    const controller = new AbortController();
    const entry: Entry = { page: this.recognize(capture, region, controller.signal, skips ? known : undefined), controller, waiters: 0 };
    this.cache.set(key, entry);
    entry.page.catch(() => {
      if (this.cache.get(key) === entry) this.cache.delete(key);
    });
    return follow(entry, signal);
  }

  clear(): void {
    this.cache.clear();
    this.bands.clear();
  }

  private async recognize(capture: ScreenImage, region: Rect | undefined, signal: AbortSignal, known?: readonly Rect[]): Promise<OcrPage> {
    if (region) {
      const prepared = await prepareForOcr(capture, region);
      signal.throwIfAborted();
      this.counters.recognitions += 1;
      return withinRegion(toPoints(await this.recognizer.recognize(prepared.image, signal), prepared), region);
    }
    const prepared = await preparePixels(capture);
    signal.throwIfAborted();
    this.counters.recognitions += 1;
    const bands = textBands(prepared.gray, prepared.width, prepared.height).filter((band) => {
      const told = known !== undefined && isTold(band, prepared, known);
      if (told) this.counters.bandsSkipped += 1;
      return !told;
    });
    const pages = new Array<EnginePage>(bands.length);
    // As many bands at a time as the recognizer has workers (its queue is bounded).
    let next = 0;
    const readBands = async () => {
      while (next < bands.length) {
        const i = next++;
        pages[i] = await this.bandWords(bands[i], prepared, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.recognizer.parallelism ?? 1) }, readBands));
    const lines = bands.flatMap((band, i) => toPoints(pages[i], { ...prepared, originY: prepared.originY + band.imageTop / prepared.scale }).lines);
    lines.sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
    return { lines };
  }

  /** A band's words (in its own image's pixels), read once per distinct band image. */
  private async bandWords(band: TextBand, prepared: PreparedPixels, signal: AbortSignal): Promise<EnginePage> {
    const key = createHash('sha1').update(band.gray).update(`:${prepared.width}`).digest('hex');
    const known = this.bands.get(key);
    if (known) {
      this.counters.bandsReused += 1;
      // Shared with another screenshot's read whose callers all gave up: read it again for this one.
      return known.catch((error) => (signal.aborted ? Promise.reject(error) : this.readBand(key, band, prepared, signal)));
    }
    return this.readBand(key, band, prepared, signal);
  }

  private readBand(key: string, band: TextBand, prepared: PreparedPixels, signal: AbortSignal): Promise<EnginePage> {
    this.counters.bandsRead += 1;
    const words = this.recognizer.recognize(grayImage(band.gray, prepared.width, band.height), signal);
    this.bands.set(key, words);
    // A read everyone gave up on is forgotten at once (it may never settle): the next screenshot reads afresh.
    const forget = () => {
      if (this.bands.get(key) === words) this.bands.delete(key);
    };
    signal.addEventListener('abort', forget, { once: true });
    words.catch(forget).finally(() => signal.removeEventListener('abort', forget));
    return words;
  }
}

/** An entry everyone gave up on may still fail with their reason: a new caller starts afresh instead. */
function live(entry: Entry | undefined): Entry | undefined {
  return entry && !entry.controller.signal.aborted ? entry : undefined;
}

/** Waits for a shared result until it settles or this caller's signal aborts (the last to give up drops it). */
function follow(entry: Entry, signal: AbortSignal | undefined): Promise<OcrPage> {
  if (!signal) {
    entry.waiters = Infinity;
    return entry.page;
  }
  entry.waiters += 1;
  return new Promise<OcrPage>((resolve, reject) => {
    const onAbort = () => {
      entry.waiters -= 1;
      if (entry.waiters === 0) entry.controller.abort(signal.reason);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    entry.page.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function knownKey(known: readonly Rect[]): string {
  return createHash('sha1').update(known.map(regionKey).join(';')).digest('hex').slice(0, 16);
}

/** Ink may stray this far (points) outside an element's bounds and still count as inside (anti-aliasing). */
const TOLD_SLACK_PT = 1;

/** Whether every ink run of the band lies inside one of the known rects. */
function isTold(band: TextBand, prepared: PreparedPixels, known: readonly Rect[]): boolean {
  const [top, bottom] = inkRows(band);
  const y0 = prepared.originY + top / prepared.scale;
  const y1 = prepared.originY + bottom / prepared.scale;
  const runs = inkColumnRuns(band, prepared.width);
  // No run found (faint ink only): read it rather than guess.
  return runs.length > 0 && runs.every(([start, end]) => {
    const x0 = prepared.originX + start / prepared.scale;
    const x1 = prepared.originX + end / prepared.scale;
    return known.some(
      (r) => x0 >= r.x - TOLD_SLACK_PT && x1 <= r.x + r.width + TOLD_SLACK_PT && y0 >= r.y - TOLD_SLACK_PT && y1 <= r.y + r.height + TOLD_SLACK_PT,
    );
  });
}

function regionKey(region: Rect): string {
  return [region.x, region.y, region.width, region.height].map((v) => Math.round(v * 10) / 10).join(',');
}

/** Engine pixels → points, noise dropped, lines split where words are far apart. */
function toPoints(page: EnginePage, prepared: Pick<PreparedPixels, 'scale' | 'originX' | 'originY'>): OcrPage {
  const lines: OcrLine[] = [];
  for (const engineLine of page.lines) {
    const words: OcrWord[] = engineLine
      .filter((word) => word.confidence >= MIN_WORD_CONFIDENCE && word.text.trim().length > 0)
      .map((word) => ({
        text: word.text.trim(),
        confidence: Math.max(0, Math.min(1, word.confidence / 100)),
        bounds: {
          x: prepared.originX + word.bbox.x0 / prepared.scale,
          y: prepared.originY + word.bbox.y0 / prepared.scale,
          width: (word.bbox.x1 - word.bbox.x0) / prepared.scale,
          height: (word.bbox.y1 - word.bbox.y0) / prepared.scale,
        },
      }))
      .sort((a, b) => a.bounds.x - b.bounds.x);
    // Split on gaps before dropping symbol-only "words" ("&"), so their room does not read as a gap.
    for (const group of splitAtGaps(words)) {
      const meaningful = group.filter((word) => hasWordCharacters(word.text));
      if (meaningful.length > 0) lines.push(lineOf(meaningful));
    }
  }
  lines.sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
  return { lines };
}

function splitAtGaps(words: OcrWord[]): OcrWord[][] {
  const groups: OcrWord[][] = [];
  let current: OcrWord[] = [];
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous) {
      const lineHeight = Math.max(previous.bounds.height, word.bounds.height);
      const gap = word.bounds.x - (previous.bounds.x + previous.bounds.width);
      if (gap > MAX_WORD_GAP_IN_LINE_HEIGHTS * lineHeight) {
        groups.push(current);
        current = [];
      }
    }
    current.push(word);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

export function lineOf(words: OcrWord[]): OcrLine {
  return {
    text: words.map((word) => word.text).join(' '),
    bounds: unionOf(words.map((word) => word.bounds)),
    confidence: words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
    words,
  };
}

/** Keeps the words whose centre lies in the region (lines re-formed from what is left). */
function withinRegion(page: OcrPage, region: Rect): OcrPage {
  const lines: OcrLine[] = [];
  for (const line of page.lines) {
    if (!intersects(line.bounds, region)) continue;
    const words = line.words.filter((word) => {
      const cx = word.bounds.x + word.bounds.width / 2;
      const cy = word.bounds.y + word.bounds.height / 2;
      return cx >= region.x && cy >= region.y && cx <= region.x + region.width && cy <= region.y + region.height;
    });
    if (words.length > 0) lines.push(lineOf(words));
  }
  return { lines };
}

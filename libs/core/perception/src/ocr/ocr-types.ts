import type { Rect } from '@apex/port';

/** One recognized word, in points. */
export interface OcrWord {
  text: string;
  bounds: Rect;
  /** 0..1 */
  confidence: number;
}

/** Words on one line with no wide gap between them, in points. */
export interface OcrLine {
  text: string;
  bounds: Rect;
  /** 0..1, the mean of its words. */
  confidence: number;
  words: OcrWord[];
}

export interface OcrPage {
  lines: OcrLine[];
}

/** A word box as the OCR engine reports it, in the pixels of the image it was given. */
export interface EngineWord {
  text: string;
  /** 0..100 */
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** Words grouped in the engine's lines. */
export interface EnginePage {
  lines: EngineWord[][];
}

/** Recognizes one prepared image. The tesseract pool is the real one; it is an interface so the cache can count. */
export interface OcrRecognizer {
  /** Images it can recognize at the same time (workers); a full screen is split into this many bands. */
  readonly parallelism?: number;
  /** `signal`: the caller gave up; a recognition not yet started is dropped and rejects with its reason. */
  recognize(image: Buffer, signal?: AbortSignal): Promise<EnginePage>;
  close(): Promise<void>;
}

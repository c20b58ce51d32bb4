import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import { sharp } from './sharp';

/** A capture's pixels, decoded: RGB, one byte per channel, row by row (a screen is opaque). */
export interface DecodedPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/**
 * One capture as perception reads it: its PNG, its content hash and its decoded pixels, each computed at most
 * once however many readers share it (OCR and icon naming of one describe_screen).
 */
export class ScreenImage {
  private digest?: string;
  private decoded?: Promise<DecodedPixels>;

  constructor(
    readonly png: Buffer,
    /** Pixels per point. */
    readonly scale: number,
  ) {}

  /** The capture itself, or a PNG wrapped as one. */
  static of(image: ScreenImage | Buffer, scale: number): ScreenImage {
    return image instanceof ScreenImage ? image : new ScreenImage(image, scale);
  }

  /** What the cache keys of OCR and edge maps are made of: equal for equal PNG bytes. */
  get hash(): string {
    this.digest ??= createHash('sha1').update(this.png).digest('hex');
    return this.digest;
  }

  /** The PNG decoded (in sharp's threads), once. */
  pixels(): Promise<DecodedPixels> {
    this.decoded ??= sharp(this.png)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, width: info.width, height: info.height, channels: info.channels }));
    return this.decoded;
  }

  /** A sharp pipeline over the decoded pixels: resize, crop or grey them without decoding the PNG again. */
  async pipeline(): Promise<Sharp.Sharp> {
    const { data, width, height, channels } = await this.pixels();
    return sharp(data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } });
  }
}

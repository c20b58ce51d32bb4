import type { GrayImage } from './gray-image';

/** A template image searched at many sizes; the workers build its edge map at each size (see ScoreJob). */
export class ScalableTemplate {
  constructor(
    /** The template in grey, at its own (preferably high) resolution. */
    readonly gray: GrayImage,
    readonly name?: string,
  ) {}

  /** height / width */
  get aspect(): number {
    return this.gray.height / this.gray.width;
  }
}

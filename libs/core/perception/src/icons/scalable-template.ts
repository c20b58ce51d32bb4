import { blurEdges, orientedEdges, type EdgeImage, type GrayImage } from './gray-image';
import { EDGE_BLUR_RADIUS } from './screen-edges';
import { resizeGray } from './template-match';

/** A template image that yields its blurred edge map at any pixel size (memoized). */
export class ScalableTemplate {
  private readonly edgesBySize = new Map<string, EdgeImage>();

  constructor(
    /** The template in grey, at its own (preferably high) resolution. */
    readonly gray: GrayImage,
    readonly name?: string,
  ) {}

  /** height / width */
  get aspect(): number {
    return this.gray.height / this.gray.width;
  }

  edgesAt(width: number, height: number): EdgeImage {
    const key = `${width}x${height}`;
    let edges = this.edgesBySize.get(key);
    if (!edges) {
      edges = blurEdges(orientedEdges(resizeGray(this.gray, width, height)), EDGE_BLUR_RADIUS);
      this.edgesBySize.set(key, edges);
    }
    return edges;
  }
}

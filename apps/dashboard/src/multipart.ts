/**
 * Reads a `multipart/x-mixed-replace` stream (MJPEG) part by part: each part's body is cut by its
 * Content-Length when it has one, else at the next boundary. Chunk edges may fall anywhere.
 */
export function boundaryOf(contentType: string | null): string | undefined {
  const match = /boundary="?([^";]+)"?/i.exec(contentType ?? '');
  return match?.[1];
}

const CRLF2 = [13, 10, 13, 10];

function indexOf(haystack: Uint8Array, needle: ArrayLike<number>, from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export class MultipartReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private readonly delimiter: Uint8Array;

  /** `boundary` as the Content-Type names it (a leading `--` in the stream is added here). */
  constructor(boundary: string) {
    const b = boundary.startsWith('--') ? boundary : `--${boundary}`;
    this.delimiter = new TextEncoder().encode(b);
  }

  /** Feeds a chunk; returns the bodies of the parts it completed. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.buffer = concat(this.buffer, chunk);
    const parts: Uint8Array[] = [];
    for (;;) {
      const start = indexOf(this.buffer, this.delimiter);
      if (start < 0) break;
      const headerEnd = indexOf(this.buffer, CRLF2, start);
      if (headerEnd < 0) break;
      const headers = new TextDecoder().decode(this.buffer.subarray(start, headerEnd));
      const bodyStart = headerEnd + 4;
      const length = /content-length:\s*(\d+)/i.exec(headers)?.[1];
      let bodyEnd: number;
      let next: number;
      if (length !== undefined) {
        bodyEnd = bodyStart + Number(length);
        if (this.buffer.length < bodyEnd) break;
        next = bodyEnd;
      } else {
        const boundaryAt = indexOf(this.buffer, this.delimiter, bodyStart);
        if (boundaryAt < 0) break;
        bodyEnd = boundaryAt;
        // The CRLF before the next delimiter belongs to the framing, not the image.
        while (bodyEnd > bodyStart && (this.buffer[bodyEnd - 1] === 10 || this.buffer[bodyEnd - 1] === 13)) bodyEnd--;
        next = boundaryAt;
      }
      parts.push(this.buffer.slice(bodyStart, bodyEnd));
      this.buffer = this.buffer.slice(next);
    }
    return parts;
  }
}

/**
 * Reads an MJPEG stream (`multipart/x-mixed-replace`) into whole frames, fed in chunks split anywhere. An HTTP
 * response head in front is read first (its status must be 200; its boundary is used when a part has no
 * Content-Length). Each part's body is taken by its Content-Length, or else up to the next boundary line.
 *
 * WDA's head says `boundary=--BoundaryString` and its parts start with `--BoundaryString` (not the `----…` the
 * multipart rules would give): a boundary is found with or without the extra dashes.
 */

const CRLF2 = Buffer.from('\r\n\r\n', 'latin1');
/** A part (or a head) larger than this is not a screen frame: the stream is refused. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;
const MAX_HEAD_BYTES = 16 * 1024;

export class MjpegFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MjpegFormatError';
  }
}

type State = { kind: 'response-head' } | { kind: 'part-head' } | { kind: 'body'; length?: number };

export class MultipartFrameReader {
  private buffer = Buffer.alloc(0);
  private state: State = { kind: 'response-head' };
  /** The boundary without its leading dashes, once known. */
  private boundary?: string;

  /** Feeds bytes; returns the frames they complete, in order. */
  push(chunk: Uint8Array): Buffer[] {
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
    const frames: Buffer[] = [];
    for (;;) {
      const frame = this.step();
      if (frame === 'more') break;
      if (frame) frames.push(frame);
    }
    return frames;
  }

  /** One move of the state machine: a frame, `undefined` (moved on, no frame), or `more` (needs bytes). */
  private step(): Buffer | undefined | 'more' {
    switch (this.state.kind) {
      case 'response-head':
        return this.readResponseHead();
      case 'part-head':
        return this.readPartHead();
      case 'body':
        return this.readBody(this.state.length);
    }
  }

  private readResponseHead(): undefined | 'more' {
    const start = skipBlankLines(this.buffer);
    if (this.buffer.length - start < 5) return this.need(MAX_HEAD_BYTES, 'head');
    if (this.buffer.toString('latin1', start, start + 5) !== 'HTTP/') {
      // No response head: the stream starts with its parts.
      this.state = { kind: 'part-head' };
      return undefined;
    }
    const end = this.buffer.indexOf(CRLF2, start);
    if (end < 0) return this.need(MAX_HEAD_BYTES, 'head');
    const head = this.buffer.toString('latin1', start, end);
    const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(head)?.[1];
    if (status !== '200') throw new MjpegFormatError(`the stream answered with status ${status ?? '(none)'}`);
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (boundary) this.boundary = boundary.replace(/^-+/, '');
    this.buffer = this.buffer.subarray(end + 4);
    this.state = { kind: 'part-head' };
    return undefined;
  }

  private readPartHead(): undefined | 'more' {
    const start = skipBlankLines(this.buffer);
    const end = this.buffer.indexOf(CRLF2, start);
    if (end < 0) {
      this.buffer = this.buffer.subarray(start);
      return this.need(MAX_HEAD_BYTES, 'part head');
    }
    const lines = this.buffer.toString('latin1', start, end).split('\r\n');
    if (!lines[0].startsWith('--')) throw new MjpegFormatError('a part does not start with a boundary line');
    this.boundary ??= lines[0].replace(/^-+/, '').trim() || undefined;
    const lengthLine = lines.slice(1).find((line) => /^content-length\s*:/i.test(line));
    const length = lengthLine === undefined ? undefined : Number(lengthLine.slice(lengthLine.indexOf(':') + 1).trim());
    if (length !== undefined && (!Number.isInteger(length) || length < 0 || length > MAX_FRAME_BYTES)) {
      throw new MjpegFormatError('a part has an invalid Content-Length');
    }
    this.buffer = this.buffer.subarray(end + 4);
    this.state = { kind: 'body', length };
    return undefined;
  }

  private readBody(length: number | undefined): Buffer | 'more' {
    let frame: Buffer;
    if (length !== undefined) {
      if (this.buffer.length < length) return 'more';
      frame = Buffer.from(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
    } else {
      if (!this.boundary) throw new MjpegFormatError('a part has neither a Content-Length nor a known boundary');
      const at = this.boundaryLineAt(this.boundary);
      if (at < 0) return this.need(MAX_FRAME_BYTES, 'frame');
      // The CRLFs that end a part belong to the delimiter (a JPEG ends with its EOI marker, never with CRLF).
      let end = at;
      while (end >= 2 && this.buffer[end - 2] === 0x0d && this.buffer[end - 1] === 0x0a) end -= 2;
      frame = Buffer.from(this.buffer.subarray(0, end));
      this.buffer = this.buffer.subarray(at + 2);
    }
    this.state = { kind: 'part-head' };
    return frame;
  }

  /** Index of the CRLF before the next line that is dashes then the boundary, or -1. */
  private boundaryLineAt(boundary: string): number {
    const lineStart = Buffer.from('\r\n--', 'latin1');
    for (let at = this.buffer.indexOf(lineStart); at >= 0; at = this.buffer.indexOf(lineStart, at + 1)) {
      let name = at + 2;
      while (this.buffer[name] === 0x2d) name++;
      if (name + boundary.length > this.buffer.length) return -1;
      if (this.buffer.toString('latin1', name, name + boundary.length) === boundary) return at;
    }
    return -1;
  }

  private need(limit: number, what: string): 'more' {
    if (this.buffer.length > limit) throw new MjpegFormatError(`the stream's ${what} is too large`);
    return 'more';
  }
}

/** Where the text starts after any empty lines (the CRLFs that end a part). */
function skipBlankLines(buffer: Buffer): number {
  let at = 0;
  while (at < buffer.length && (buffer[at] === 0x0d || buffer[at] === 0x0a)) at++;
  return at;
}

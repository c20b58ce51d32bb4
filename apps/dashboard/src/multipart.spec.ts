import { boundaryOf, MultipartReader } from './multipart';

const enc = (s: string) => new TextEncoder().encode(s);
const jpeg = (n: number) => Uint8Array.from({ length: 40 + n }, (_, i) => (i * 7 + n) % 256);

function stream(boundary: string, frames: Uint8Array[], withLength: boolean): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const frame of frames) {
    parts.push(enc(`--${boundary}\r\nContent-Type: image/jpeg\r\n${withLength ? `Content-Length: ${frame.length}\r\n` : ''}\r\n`), frame, enc('\r\n'));
  }
  if (!withLength) parts.push(enc(`--${boundary}\r\n`));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('reading a multipart/x-mixed-replace stream', () => {
  const frames = [jpeg(1), jpeg(2), jpeg(3)];

  it('finds the boundary in the content type, quoted or not', () => {
    expect(boundaryOf('multipart/x-mixed-replace; boundary=frame')).toBe('frame');
    expect(boundaryOf('multipart/x-mixed-replace;boundary="--BoundaryString"')).toBe('--BoundaryString');
    expect(boundaryOf('image/jpeg')).toBeUndefined();
  });

  it.each([true, false])('yields every frame whole wherever the chunks are cut (Content-Length: %s)', (withLength) => {
    const bytes = stream('apexframe', frames, withLength);
    for (let cut = 1; cut < bytes.length; cut++) {
      const reader = new MultipartReader('apexframe');
      const got = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      expect(got.map((f) => Array.from(f))).toEqual(frames.map((f) => Array.from(f)));
    }
  });

  it('takes a boundary given with its leading dashes, byte by byte', () => {
    const bytes = stream('BoundaryString', frames, true);
    const reader = new MultipartReader('--BoundaryString');
    const got: Uint8Array[] = [];
    for (const byte of bytes) got.push(...reader.push(Uint8Array.of(byte)));
    expect(got).toHaveLength(3);
  });
});

import { createServer, type Server } from 'node:net';
import { isApexError } from '@apex/errors';
import { MjpegFormatError, MultipartFrameReader } from './multipart-frames';
import { readScreenStream } from './screen-stream';

const WDA_HEAD =
  'HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nConnection: close\r\nContent-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n';

/** Frames with bytes that look like protocol text inside them (CRLFs, dashes, the boundary's name). */
const FRAMES = [
  Buffer.from([0xff, 0xd8, 0x0d, 0x0a, 0x2d, 0x2d, 0x42, 0xff, 0xd9]),
  Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from('\r\n\r\n--Boundary\r\n'), Buffer.from([0xff, 0xd9])]),
  Buffer.from([0xff, 0xd8, 0x00, 0x01, 0x02, 0xff, 0xd9]),
];

function wdaStream(frames: Buffer[], withLength = true): Buffer {
  return Buffer.concat([
    Buffer.from(WDA_HEAD, 'latin1'),
    ...frames.flatMap((frame) => [
      Buffer.from(`--BoundaryString\r\nContent-type: image/jpeg\r\n${withLength ? `Content-Length: ${frame.length}\r\n` : ''}\r\n`, 'latin1'),
      frame,
      Buffer.from('\r\n\r\n', 'latin1'),
    ]),
  ]);
}

function readAll(chunks: Buffer[]): Buffer[] {
  const reader = new MultipartFrameReader();
  return chunks.flatMap((chunk) => reader.push(chunk));
}

describe('MultipartFrameReader', () => {
  it.each([
    ['with Content-Length', true],
    ['by boundary scan (no Content-Length)', false],
  ])('reads the frames %s, split at every byte boundary', (_name, withLength) => {
    // The last frame is complete only once the next boundary line arrives when there is no length.
    const bytes = Buffer.concat([wdaStream(FRAMES, withLength), Buffer.from('--BoundaryString\r\n', 'latin1')]);
    const expected = FRAMES;
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(expected);
    }
    for (let cut = 1; cut < bytes.length; cut++) {
      for (const second of [cut + 1, cut + 7]) {
        if (second >= bytes.length) continue;
        expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut, second), bytes.subarray(second)])).toEqual(expected);
      }
    }
    expect(readAll([...bytes].map((byte) => Buffer.from([byte])))).toEqual(expected);
  });

  it('reads a standard multipart stream (boundary without dashes, parts with two more) and one without a head', () => {
    const standard = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace;boundary="frame"\r\n\r\n', 'latin1'),
      Buffer.from('--frame\r\nContent-Type: image/jpeg\r\n\r\n', 'latin1'),
      FRAMES[0],
      Buffer.from('\r\n--frame\r\nContent-Type: image/jpeg\r\n\r\n', 'latin1'),
      FRAMES[2],
      Buffer.from('\r\n--frame\r\n', 'latin1'),
    ]);
    expect(readAll([standard])).toEqual([FRAMES[0], FRAMES[2]]);
    const headless = wdaStream(FRAMES).subarray(WDA_HEAD.length);
    expect(readAll([headless])).toEqual(FRAMES);
  });

  it('refuses what is not a stream of frames', () => {
    expect(() => readAll([Buffer.from('HTTP/1.1 404 Not Found\r\n\r\n')])).toThrow(MjpegFormatError);
    expect(() => readAll([Buffer.from(`${WDA_HEAD}<html>\r\n\r\n`)])).toThrow(/boundary line/);
    expect(() => readAll([Buffer.from(`${WDA_HEAD}--BoundaryString\r\nContent-Length: -3\r\n\r\n`)])).toThrow(/Content-Length/);
    expect(() => readAll([Buffer.alloc(20_000, 0x41)])).toThrow(MjpegFormatError);
  });
});

describe('readScreenStream', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function serve(onConnection: Parameters<typeof createServer>[1]): Promise<number> {
    server = createServer(onConnection);
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  it('yields the frames and closes its socket when the reader aborts', async () => {
    let closed = false;
    const port = await serve((socket) => {
      socket.once('data', () => socket.write(wdaStream(FRAMES)));
      socket.on('close', () => (closed = true));
    });
    const controller = new AbortController();
    const got: Uint8Array[] = [];
    for await (const frame of readScreenStream({ deviceId: 'd1', url: new URL(`http://127.0.0.1:${port}`), connectTimeoutMs: 5_000 }, controller.signal)) {
      got.push(frame);
      if (got.length === 2) controller.abort();
    }
    // A reader that falls behind gets the newest frames (older ones are dropped), in order.
    const indexes = got.map((frame) => FRAMES.findIndex((f) => f.equals(Buffer.from(frame))));
    expect(indexes.every((i) => i >= 0)).toBe(true);
    expect(indexes[1]).toBeGreaterThan(indexes[0]);
    await new Promise<void>((resolve) => {
      const check = () => (closed ? resolve() : setTimeout(check, 10));
      check();
    });
  });

  it('names the device as offline when nothing listens', async () => {
    const port = await serve(() => undefined);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const frames = readScreenStream({ deviceId: 'd1', url: new URL(`http://127.0.0.1:${port}`), connectTimeoutMs: 5_000 }, new AbortController().signal);
    const error = await frames.next().then(() => undefined, (e: unknown) => e);
    expect(isApexError(error) && error.code).toBe('device_offline');
    expect((error as Error).message).toBe(`Device d1's screen stream at 127.0.0.1:${port} is not reachable.`);
  });

  it('answers device_error for a stream it cannot read', async () => {
    const port = await serve((socket) => socket.once('data', () => socket.end('HTTP/1.1 500 Oops\r\n\r\n')));
    const frames = readScreenStream({ deviceId: 'd1', url: new URL(`http://127.0.0.1:${port}`), connectTimeoutMs: 5_000 }, new AbortController().signal);
    const error = await frames.next().then(() => undefined, (e: unknown) => e);
    expect(isApexError(error) && error.code).toBe('device_error');
  });
});

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eventually } from '@apex/testing';
import { Mp4Encoder } from './mp4-encoder';
import { readMp4Facts } from './testing';

describe('Mp4Encoder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-encoder-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('begins encoding from the first frames: it does not hold seconds of input to probe it first', async () => {
    const file = join(dir, 'out.mp4');
    const jpeg = await sharp({ create: { width: 64, height: 96, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
    // 15 frames at 30 fps: 0.5 s of input, far below what a default probe waits for (5 s or 5 MB), and more than
    // the few a threaded decoder holds. The encoder opens its output only once it has begun encoding; with the
    // default probe it waited for more frames, which never came.
    const encoder = new Mp4Encoder({ file, fps: 30, width: 64, height: 96 });
    try {
      await encoder.write(jpeg, 15);
      await eventually(() => existsSync(file), { timeoutMs: 20_000, what: 'the encoder opening its output while its input is still open' });
      await encoder.finish(30_000);
    } finally {
      await encoder.kill();
    }
    const facts = readMp4Facts(readFileSync(file));
    expect(facts).toMatchObject({ codec: 'avc1', frames: 15, width: 64, height: 96 });
  });
});

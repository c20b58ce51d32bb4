import { WireStream } from './wire-stream';

/*
 * Reading a direct stream chunk by chunk (what a line reader of `logcat` does): chunks come out in order, the
 * stream's end ends the reading, and a device sending more than the reader takes is stopped at the bound (CLSE
 * sent, `too_large`) instead of filling memory.
 */

function stream(): { s: WireStream; closes: () => number } {
  let closes = 0;
  const s = new WireStream(1, 2, { write: () => undefined, close: () => void closes++, maxPayload: () => 4096 }, new AbortController().signal);
  return { s, closes: () => closes };
}

describe('a direct stream read chunk by chunk', () => {
  it('gives the chunks in order and ends with the device’s CLSE', async () => {
    const { s, closes } = stream();
    s.push(Buffer.from('one\n'));
    s.push(Buffer.from('two\n'));
    setImmediate(() => {
      s.push(Buffer.from('three\n'));
      s.end();
    });
    const chunks: string[] = [];
    for await (const chunk of s.chunksUntilEnd(1024)) chunks.push(chunk.toString());
    expect(chunks.join('')).toBe('one\ntwo\nthree\n');
    expect(closes()).toBe(0);
  });

  it('more than the bound waiting unread: too_large, and the stream is closed on the device', async () => {
    const { s, closes } = stream();
    s.push(Buffer.alloc(600));
    s.push(Buffer.alloc(600));
    const reading = (async () => {
      for await (const chunk of s.chunksUntilEnd(1000)) void chunk;
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'too_large' });
    expect(closes()).toBe(1);
  });

  it('a stream whose call is aborted fails the reading as aborted', async () => {
    const controller = new AbortController();
    const s = new WireStream(1, 2, { write: () => undefined, close: () => undefined, maxPayload: () => 4096 }, controller.signal);
    const reading = (async () => {
      for await (const chunk of s.chunksUntilEnd(1000)) void chunk;
    })();
    setImmediate(() => controller.abort());
    await expect(reading).rejects.toMatchObject({ kind: 'aborted' });
  });
});

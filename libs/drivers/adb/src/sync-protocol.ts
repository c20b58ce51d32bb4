import { AdbServerFailure } from './adb-server/adb-server-client';
import { AdbTransportError } from './adb-server/socket-reader';
import type { ByteSink, ByteSource } from './shell-protocol';

/*
 * The host side of a push over the `sync:` service (AOSP SYNC.TXT, file_sync_protocol.h), the same whichever
 * transport carries the stream: 8-byte requests `id, u32le value`; `SEND` with `path,mode`, DATA chunks of at
 * most 64 KiB, `DONE` with the mtime, then the device's OKAY, or FAIL with its reason.
 */

/** The largest DATA chunk of a push (`SYNC_DATA_MAX`). */
const SYNC_DATA_MAX = 64 * 1024;
/** The longest `path,mode` a SEND may carry (adbd refuses longer ones). */
const SYNC_PATH_MAX = 1024;

function syncHeader(id: string, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.write(id, 0, 'latin1');
  b.writeUInt32LE(value >>> 0, 4);
  return b;
}

/**
 * Pushes `data` to `remotePath` with `mode` over an open `sync:` stream (written to `stream`, answered on
 * `reply`). A device's FAIL is an AdbServerFailure with its reason. QUIT is sent without waiting for it to be
 * taken: the caller closes the stream next.
 */
export async function pushOverSync(stream: ByteSink, reply: ByteSource, remotePath: string, mode: number, data: AsyncIterable<Uint8Array>): Promise<void> {
  const target = Buffer.from(`${remotePath},${mode}`, 'utf8');
  if (target.length > SYNC_PATH_MAX) throw new AdbTransportError('too_large', 'the device path is too long');
  await stream.write(Buffer.concat([syncHeader('SEND', target.length), target]));
  for await (const chunk of data) {
    for (let at = 0; at < chunk.length; at += SYNC_DATA_MAX) {
      const part = Buffer.from(chunk.subarray(at, at + SYNC_DATA_MAX));
      await stream.write(Buffer.concat([syncHeader('DATA', part.length), part]));
    }
  }
  await stream.write(syncHeader('DONE', Math.floor(Date.now() / 1000)));
  const answer = await reply.read(8);
  const id = answer.toString('latin1', 0, 4);
  if (id === 'FAIL') throw new AdbServerFailure('sync:', (await reply.read(answer.readUInt32LE(4))).toString('utf8'));
  if (id !== 'OKAY') throw new AdbTransportError('protocol', `unexpected reply ${JSON.stringify(id)} to a push`);
  void stream.write(syncHeader('QUIT', 0)).catch(() => undefined);
}

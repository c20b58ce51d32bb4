import { AdbTransportError } from './adb-server/socket-reader';

/**
 * A command's output, chunk by chunk as it arrives, read as lines (a trailing `\r` dropped). A line longer than
 * `maxLineBytes` is cut there and the rest of it skipped, so memory stays bounded whatever the device sends; the
 * signal is checked between lines, so a flood within one chunk stops once the reader gives up.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer>, signal: AbortSignal, maxLineBytes: number): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  for await (const chunk of chunks) {
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
      if (signal.aborted) throw new AdbTransportError('aborted', 'the call was cancelled');
      if (!skipping) pending.push(chunk.subarray(from, Math.min(nl, from + Math.max(0, maxLineBytes - pendingBytes))));
      yield Buffer.concat(pending).toString('utf8').replace(/\r$/, '');
      pending = [];
      pendingBytes = 0;
      skipping = false;
      from = nl + 1;
    }
    if (from < chunk.length && !skipping) {
      const rest = chunk.subarray(from, from + Math.max(0, maxLineBytes - pendingBytes));
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
      if (pendingBytes >= maxLineBytes) skipping = true;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
}

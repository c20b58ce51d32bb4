import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { encoderBinary } from './encoder-binary';

/** What an MP4's own boxes say about its one video track, read without any media library. */
export interface Mp4Facts {
  /** `ftyp` major brand, e.g. `isom`. */
  brand: string;
  /** The sample entry of the video track: `avc1` for H.264. */
  codec: string;
  /** From `mvhd`: duration / timescale. */
  seconds: number;
  /** From `stsz`: the number of frames stored. */
  frames: number;
  /** From `tkhd`. */
  width: number;
  height: number;
  /** Whether `moov` comes before `mdat` (a browser can play before it has the whole file). */
  moovFirst: boolean;
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

/** Reads the boxes an MP4 player needs first (ISO/IEC 14496-12), to check a file without trusting the encoder. */
export function readMp4Facts(file: Buffer): Mp4Facts {
  const facts: Partial<Mp4Facts> = {};
  const topLevel: string[] = [];
  const walk = (start: number, end: number, depth: number) => {
    let at = start;
    while (at + 8 <= end) {
      let size = file.readUInt32BE(at);
      const type = file.toString('latin1', at + 4, at + 8);
      let header = 8;
      if (size === 1) {
        size = Number(file.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) {
        size = end - at;
      }
      if (size < header || at + size > end) throw new Error(`damaged MP4: box ${type} at ${at} overruns its parent`);
      if (depth === 0) topLevel.push(type);
      const body = at + header;
      if (type === 'ftyp') facts.brand = file.toString('latin1', body, body + 4);
      if (type === 'mvhd') {
        const version = file[body];
        const timescale = version === 1 ? file.readUInt32BE(body + 20) : file.readUInt32BE(body + 12);
        const duration = version === 1 ? Number(file.readBigUInt64BE(body + 24)) : file.readUInt32BE(body + 16);
        facts.seconds = duration / timescale;
      }
      if (type === 'tkhd') {
        const version = file[body];
        const dims = body + (version === 1 ? 88 : 76);
        facts.width = file.readUInt32BE(dims) / 65536;
        facts.height = file.readUInt32BE(dims + 4) / 65536;
      }
      if (type === 'stsd') facts.codec = file.toString('latin1', body + 12, body + 16);
      if (type === 'stsz') facts.frames = file.readUInt32BE(body + 8);
      if (CONTAINERS.has(type)) walk(body, at + size, depth + 1);
      at += size;
    }
  };
  walk(0, file.length, 0);
  const missing = (['brand', 'codec', 'seconds', 'frames', 'width', 'height'] as const).filter((key) => facts[key] === undefined);
  if (missing.length > 0) throw new Error(`not a complete MP4: no ${missing.join(', ')}`);
  return { ...(facts as Omit<Mp4Facts, 'moovFirst'>), moovFirst: topLevel.indexOf('moov') >= 0 && topLevel.indexOf('moov') < topLevel.indexOf('mdat') };
}

/**
 * Every frame of the video decoded to RGB (3 bytes a pixel, rows top to bottom), by the same encoder package;
 * `size` scales them on the way (comparing small frames is quicker).
 */
export async function decodeMp4Frames(path: string, size?: { width: number; height: number }): Promise<{ width: number; height: number; frames: Buffer[] }> {
  const facts = readMp4Facts(await readFile(path));
  const { width, height } = size ?? facts;
  const scale = size ? ['-vf', `scale=${width}:${height}:flags=area`] : [];
  const child = spawn(encoderBinary(), ['-hide_banner', '-loglevel', 'error', '-i', path, ...scale, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`decoding ${path} failed: ${errors}`);
  const all = Buffer.concat(chunks);
  const frameBytes = width * height * 3;
  const frames: Buffer[] = [];
  for (let at = 0; at + frameBytes <= all.length; at += frameBytes) frames.push(all.subarray(at, at + frameBytes));
  return { width, height, frames };
}

/** The mean absolute difference per channel (0–255) between two RGB images of one size. */
export function meanDifference(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`images differ in size: ${a.length} vs ${b.length} bytes`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

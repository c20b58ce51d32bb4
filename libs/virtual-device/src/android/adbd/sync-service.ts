import { posix } from 'node:path';
import type { DeviceFiles, FileEntry } from './device-backend';
import type { DeviceStream } from './device-stream';
import { StreamInput } from './stream-input';

/**
 * The `sync:` service (AOSP `SYNC.TXT`, `file_sync_protocol.h`, `daemon/file_sync_service.cpp`): 8-byte requests
 * `id, length` + path; STAT/LIST/RECV/SEND in v1, and STA2/LST2/LIS2/SND2/RCV2 without compression.
 */

const id = (s: string): number => Buffer.from(s, 'latin1').readUInt32LE(0);
const ID = {
  STAT: id('STAT'),
  STA2: id('STA2'),
  LST2: id('LST2'),
  LIST: id('LIST'),
  LIS2: id('LIS2'),
  DENT: id('DENT'),
  DNT2: id('DNT2'),
  SEND: id('SEND'),
  SND2: id('SND2'),
  RECV: id('RECV'),
  RCV2: id('RCV2'),
  DONE: id('DONE'),
  DATA: id('DATA'),
  OKAY: id('OKAY'),
  FAIL: id('FAIL'),
  QUIT: id('QUIT'),
};

/** The largest DATA chunk either side sends (`SYNC_DATA_MAX`). */
export const SYNC_DATA_MAX = 64 * 1024;
const MAX_PATH_LENGTH = 1024;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** Linux errno values as sent on the wire (`sysdeps/errno.cpp`). */
const ENOENT = 2;
/** Who owns files in the stat replies: the `shell` user adbd runs as on a user build. */
const SHELL_UID = 2000;

export interface SyncLimits {
  /** The largest file a SEND may write; a larger one fails with "No space left on device". */
  maxPushBytes: number;
}

function header(code: number, value: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(code, 0);
  b.writeUInt32LE(value >>> 0, 4);
  return b;
}

/** What the service writes back; an async loop over the host's requests (one at a time, as adbd). */
class SyncSession {
  private readonly input: StreamInput;

  constructor(
    private readonly stream: DeviceStream,
    private readonly files: DeviceFiles,
    private readonly limits: SyncLimits,
  ) {
    this.input = new StreamInput(stream);
  }

  async run(): Promise<void> {
    while (await this.handleRequest()) {
      /* next request */
    }
    this.stream.end();
  }

  /** One request; false ends the service (QUIT, a failure, or the host went away), as in adbd. */
  private async handleRequest(): Promise<boolean> {
    const request = await this.input.read(8);
    if (!request) return false;
    const code = request.readUInt32LE(0);
    const pathLength = request.readUInt32LE(4);
    if (pathLength > MAX_PATH_LENGTH) return this.fail('path too long');
    const name = await this.input.read(pathLength);
    if (!name) return false;
    const text = name.toString('utf8');
    switch (code) {
      case ID.STAT:
        this.statV1(devicePath(text));
        return true;
      case ID.STA2:
      case ID.LST2:
        this.stream.write(statV2(ID.STA2 === code ? ID.STA2 : ID.LST2, this.files.stat(devicePath(text))));
        return true;
      case ID.LIST:
      case ID.LIS2:
        this.list(devicePath(text), code === ID.LIS2);
        return true;
      case ID.SEND:
        return this.sendV1(text);
      case ID.SND2:
        return this.sendV2(devicePath(text));
      case ID.RECV:
        return this.recv(devicePath(text));
      case ID.RCV2:
        return this.recvV2(devicePath(text));
      case ID.QUIT:
        return false;
      default:
        return this.fail(`unknown command ${code.toString(16).padStart(8, '0')}`);
    }
  }

  private fail(reason: string): false {
    const message = Buffer.from(reason, 'utf8');
    this.stream.write(Buffer.concat([header(ID.FAIL, message.length), message]));
    return false;
  }

  private statV1(path: string): void {
    const entry = this.files.stat(path);
    const b = Buffer.alloc(16);
    b.writeUInt32LE(ID.STAT, 0);
    if (entry) {
      b.writeUInt32LE(entry.mode >>> 0, 4);
      b.writeUInt32LE(Math.min(entry.size, 0xffffffff), 8);
      b.writeUInt32LE(entry.mtime >>> 0, 12);
    }
    this.stream.write(b);
  }

  private list(path: string, v2: boolean): void {
    const entries = this.files.list(path);
    if (entries) {
      // readdir() gives "." and ".." too; adb ls shows them and adb pull skips them.
      const dot = this.files.stat(path);
      const dotdot = this.files.stat(posix.dirname(path));
      const all = [...(dot ? [{ ...dot, name: '.' }] : []), ...(dotdot ? [{ ...dotdot, name: '..' }] : []), ...entries];
      for (const entry of all) {
        const name = Buffer.from(entry.name, 'utf8');
        if (v2) {
          const dent = Buffer.alloc(76);
          statV2(ID.DNT2, entry).copy(dent, 0);
          dent.writeUInt32LE(name.length, 72);
          this.stream.write(Buffer.concat([dent, name]));
        } else {
          const dent = Buffer.alloc(20);
          dent.writeUInt32LE(ID.DENT, 0);
          dent.writeUInt32LE(entry.mode >>> 0, 4);
          dent.writeUInt32LE(Math.min(entry.size, 0xffffffff), 8);
          dent.writeUInt32LE(entry.mtime >>> 0, 12);
          dent.writeUInt32LE(name.length, 16);
          this.stream.write(Buffer.concat([dent, name]));
        }
      }
    }
    // The end is a whole zeroed dent with the DONE id, as adbd sends it.
    const done = Buffer.alloc(v2 ? 76 : 20);
    done.writeUInt32LE(ID.DONE, 0);
    this.stream.write(done);
  }

  /** `path,mode`: the mode is a C number after the last comma (decimal from adb). */
  private sendV1(spec: string): Promise<boolean> | false {
    const comma = spec.lastIndexOf(',');
    if (comma < 0) return this.fail('missing , in ID_SEND_V1');
    return this.receiveFile(devicePath(spec.slice(0, comma)), parseCUnsigned(spec.slice(comma + 1)));
  }

  private async sendV2(path: string): Promise<boolean> {
    const setup = await this.input.read(12);
    if (!setup) return false;
    const mode = setup.readUInt32LE(4);
    const flags = setup.readUInt32LE(8);
    // No compression and no dry run are advertised, so any flag is one we do not know.
    if (flags !== 0) return this.fail(`unknown flags: ${flags}`);
    return this.receiveFile(path, mode);
  }

  private async receiveFile(path: string, mode: number): Promise<boolean> {
    if ((mode & S_IFMT) === S_IFLNK) {
      this.fail('symlink failed: Operation not supported');
      await this.discardUntilDone();
      return false;
    }
    if (((this.files.stat(path)?.mode ?? 0) & S_IFMT) === S_IFDIR) {
      this.fail("couldn't create file: Is a directory");
      await this.discardUntilDone();
      return false;
    }
    // adbd copies the owner's permission bits to group and other.
    let perms = mode & 0o777;
    perms |= (perms >> 3) & 0o070;
    perms |= (perms >> 3) & 0o007;

    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const h = await this.input.read(8);
      if (!h) return false;
      const code = h.readUInt32LE(0);
      const length = h.readUInt32LE(4);
      if (code === ID.DONE) {
        try {
          this.files.write(path, Buffer.concat(chunks, size), perms, length);
        } catch (error) {
          return this.fail(error instanceof Error ? error.message : 'write failed');
        }
        this.stream.write(header(ID.OKAY, 0));
        return true;
      }
      if (code !== ID.DATA) return this.fail('invalid data message');
      if (length > SYNC_DATA_MAX) return this.fail('oversize data message');
      const data = await this.input.read(length);
      if (!data) return false;
      if (size + length > this.limits.maxPushBytes) {
        this.fail('write failed: No space left on device');
        await this.discardUntilDone();
        return false;
      }
      chunks.push(data);
      size += length;
    }
  }

  /** After a failed SEND, adbd keeps reading (and dropping) DATA until DONE so the host sees the FAIL. */
  private async discardUntilDone(): Promise<void> {
    for (;;) {
      const h = await this.input.read(8);
      if (!h || h.readUInt32LE(0) !== ID.DATA || h.readUInt32LE(4) > SYNC_DATA_MAX) return;
      if (!(await this.input.read(h.readUInt32LE(4)))) return;
    }
  }

  private async recvV2(path: string): Promise<boolean> {
    const setup = await this.input.read(8);
    if (!setup) return false;
    const flags = setup.readUInt32LE(4);
    if (flags !== 0) return this.fail(`unknown flags: ${flags}`);
    return this.recv(path);
  }

  private async recv(path: string): Promise<boolean> {
    const data = this.files.read(path);
    if (!data) {
      const entry = this.files.stat(path);
      if (!entry) return this.fail('open failed: No such file or directory');
      if ((entry.mode & S_IFMT) === S_IFDIR) return this.fail('read failed: Is a directory');
      return this.fail('open failed: Permission denied');
    }
    for (let offset = 0; offset < data.length; offset += SYNC_DATA_MAX) {
      const chunk = data.subarray(offset, Math.min(data.length, offset + SYNC_DATA_MAX));
      this.stream.write(Buffer.concat([header(ID.DATA, chunk.length), chunk]));
      // Keep at most a few chunks queued: a large pull does not copy the whole file into the outbox.
      await this.stream.whenDrained(2 * SYNC_DATA_MAX);
      if (this.stream.isClosed) return false;
    }
    this.stream.write(header(ID.DONE, 0));
    return true;
  }
}

function statV2(code: number, entry: FileEntry | undefined): Buffer {
  const b = Buffer.alloc(72);
  b.writeUInt32LE(code, 0);
  if (!entry) {
    b.writeUInt32LE(ENOENT, 4);
    return b;
  }
  // dev (8) and ino (16) stay 0: the in-memory device has no inode numbers.
  b.writeUInt32LE(entry.mode >>> 0, 24);
  b.writeUInt32LE((entry.mode & S_IFMT) === S_IFDIR ? 2 : 1, 28); // nlink
  b.writeUInt32LE(SHELL_UID, 32);
  b.writeUInt32LE(SHELL_UID, 36);
  b.writeBigUInt64LE(BigInt(Math.max(0, Math.trunc(entry.size))), 40);
  b.writeBigInt64LE(BigInt(Math.trunc(entry.mtime)), 48); // atime
  b.writeBigInt64LE(BigInt(Math.trunc(entry.mtime)), 56);
  b.writeBigInt64LE(BigInt(Math.trunc(entry.mtime)), 64); // ctime
  return b;
}

/** Paths reach adbd relative to `/` (its working directory); the files contract wants them absolute. */
function devicePath(path: string): string {
  return posix.resolve('/', path);
}

/** `strtoul(s, nullptr, 0)`: decimal, 0x-hex or 0-octal prefix; what does not parse counts as 0. */
function parseCUnsigned(text: string): number {
  const t = text.trim();
  const match = /^0[xX]([0-9a-fA-F]+)/.exec(t) ?? /^(0[0-7]*)/.exec(t) ?? /^([1-9][0-9]*)/.exec(t);
  if (!match) return 0;
  const radix = /^0[xX]/.test(t) ? 16 : match[1].startsWith('0') ? 8 : 10;
  return Number.parseInt(match[1], radix) >>> 0;
}

export function runSync(stream: DeviceStream, files: DeviceFiles, limits: SyncLimits): void {
  void new SyncSession(stream, files, limits).run().catch(() => stream.close());
}

/**
 * ADB transport messages (AOSP `protocol.txt`, `adb.h`): a 24-byte little-endian header
 * `command, arg0, arg1, data_length, data_crc32, magic` followed by `data_length` payload bytes.
 */

export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;
export const A_STLS = 0x534c5453;
export const A_SYNC = 0x434e5953;

/** The first protocol version; its packets carry a byte-sum "checksum" of the payload. */
export const A_VERSION_MIN = 0x01000000;
/** From this version on both sides send 0 as the checksum and do not check it. */
export const A_VERSION_SKIP_CHECKSUM = 0x01000001;
export const A_VERSION = A_VERSION_SKIP_CHECKSUM;

/** What adbd accepts per message (`MAX_PAYLOAD`, 1 MiB); the connection uses min(this, the host's maxdata). */
export const MAX_PAYLOAD = 1024 * 1024;
/** CNXN/AUTH must fit what the oldest hosts accept (`MAX_PAYLOAD_V1`). */
export const MAX_PAYLOAD_V1 = 4 * 1024;

export const HEADER_SIZE = 24;

export interface Packet {
  command: number;
  arg0: number;
  arg1: number;
  payload: Buffer;
}

const KNOWN_COMMANDS = new Set([A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_STLS]);

/** A break in the message stream: the only answer is to close the connection (`protocol.txt`). */
export class ProtocolError extends Error {}

export function payloadChecksum(payload: Uint8Array): number {
  let sum = 0;
  for (const byte of payload) sum = (sum + byte) >>> 0;
  return sum;
}

export function encodePacket(packet: Packet, withChecksum: boolean): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32LE(packet.command >>> 0, 0);
  header.writeUInt32LE(packet.arg0 >>> 0, 4);
  header.writeUInt32LE(packet.arg1 >>> 0, 8);
  header.writeUInt32LE(packet.payload.length, 12);
  header.writeUInt32LE(withChecksum ? payloadChecksum(packet.payload) : 0, 16);
  header.writeUInt32LE((packet.command ^ 0xffffffff) >>> 0, 20);
  return packet.payload.length === 0 ? header : Buffer.concat([header, packet.payload]);
}

export function commandName(command: number): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(command >>> 0);
  return /^[A-Z0-9]{4}$/.test(b.toString('latin1')) ? b.toString('latin1') : `0x${(command >>> 0).toString(16)}`;
}

/**
 * Cuts a byte stream into packets. `maxPayload()` is read per header (it changes after CNXN); `verifyChecksum(p)`
 * says whether this packet's checksum must match. Throws ProtocolError on a bad magic, an unknown command,
 * an oversize length or a wrong checksum; buffers at most one header plus one payload.
 */
export class PacketReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private header: { command: number; arg0: number; arg1: number; length: number; checksum: number } | undefined;

  constructor(
    private readonly maxPayload: () => number,
    private readonly verifyChecksum: (command: number, arg0: number) => boolean,
  ) {}

  /** Feeds bytes; returns the packets completed by them. */
  push(data: Buffer): Packet[] {
    this.chunks.push(data);
    this.buffered += data.length;
    const packets: Packet[] = [];
    for (;;) {
      if (!this.header) {
        if (this.buffered < HEADER_SIZE) break;
        const h = this.take(HEADER_SIZE);
        const command = h.readUInt32LE(0);
        const magic = h.readUInt32LE(20);
        if (magic !== (command ^ 0xffffffff) >>> 0) throw new ProtocolError(`bad magic for ${commandName(command)}`);
        if (!KNOWN_COMMANDS.has(command)) throw new ProtocolError(`unknown command ${commandName(command)}`);
        const length = h.readUInt32LE(12);
        if (length > this.maxPayload()) throw new ProtocolError(`payload of ${length} bytes exceeds ${this.maxPayload()}`);
        this.header = { command, arg0: h.readUInt32LE(4), arg1: h.readUInt32LE(8), length, checksum: h.readUInt32LE(16) };
      }
      const { command, arg0, arg1, length, checksum } = this.header;
      if (this.buffered < length) break;
      const payload = this.take(length);
      this.header = undefined;
      if (this.verifyChecksum(command, arg0) && payloadChecksum(payload) !== checksum) {
        throw new ProtocolError(`bad checksum for ${commandName(command)}`);
      }
      packets.push({ command, arg0, arg1, payload });
    }
    return packets;
  }

  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.chunks[0];
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const chunk = this.chunks[0];
        const used = Math.min(chunk.length, n - filled);
        chunk.copy(out, filled, 0, used);
        filled += used;
        if (used === chunk.length) this.chunks.shift();
        else this.chunks[0] = chunk.subarray(used);
      }
    }
    this.buffered -= n;
    return out;
  }
}

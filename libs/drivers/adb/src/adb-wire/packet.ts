/**
 * ADB transport messages, host side (AOSP `protocol.txt`, `adb.h`): a 24-byte little-endian header
 * `command, arg0, arg1, data_length, data_crc32, magic` (magic = command ^ 0xffffffff), then the payload.
 */

export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_CLSE = 0x45534c43;
export const A_WRTE = 0x45545257;
export const A_STLS = 0x534c5453;

/** AUTH's arg0 (`adb_auth.h`): the device's challenge, and the host's two answers. */
export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;

/** The first protocol version: its packets carry a byte-sum checksum of the payload. */
export const A_VERSION_MIN = 0x01000000;
/** From this version on both sides send 0 as the checksum and skip checking it. */
export const A_VERSION_SKIP_CHECKSUM = 0x01000001;
/** What we offer; the connection uses min(ours, the device's). */
export const A_VERSION = A_VERSION_SKIP_CHECKSUM;

/** The largest payload we accept (adb's MAX_PAYLOAD); the connection uses min(ours, the device's maxdata). */
export const MAX_PAYLOAD = 1024 * 1024;
/** CNXN and AUTH must fit what the oldest peers accept (MAX_PAYLOAD_V1). */
export const MAX_PAYLOAD_V1 = 4 * 1024;

const HEADER_SIZE = 24;
const KNOWN = new Set([A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_STLS]);

export interface Packet {
  command: number;
  arg0: number;
  arg1: number;
  payload: Buffer;
}

/** The stream of packets broke (bad magic, unknown command, oversize): the connection must close. */
export class WireProtocolError extends Error {}

function checksum(payload: Uint8Array): number {
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
  header.writeUInt32LE(withChecksum ? checksum(packet.payload) : 0, 16);
  header.writeUInt32LE((packet.command ^ 0xffffffff) >>> 0, 20);
  return packet.payload.length === 0 ? header : Buffer.concat([header, packet.payload]);
}

/** Cuts the device's byte stream into packets; `maxPayload()` is read per header (it changes after CNXN). */
export class PacketDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPayload: () => number) {}

  push(data: Buffer): Packet[] {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    const packets: Packet[] = [];
    while (this.buffer.length >= HEADER_SIZE) {
      const command = this.buffer.readUInt32LE(0);
      if (this.buffer.readUInt32LE(20) !== (command ^ 0xffffffff) >>> 0) throw new WireProtocolError('bad magic');
      if (!KNOWN.has(command)) throw new WireProtocolError('unknown command');
      const length = this.buffer.readUInt32LE(12);
      // CNXN may come before the sizes are agreed: it is bounded by our own maximum.
      if (length > (command === A_CNXN ? MAX_PAYLOAD : this.maxPayload())) throw new WireProtocolError(`payload of ${length} bytes is too large`);
      if (this.buffer.length < HEADER_SIZE + length) break;
      packets.push({
        command,
        arg0: this.buffer.readUInt32LE(4),
        arg1: this.buffer.readUInt32LE(8),
        payload: Buffer.from(this.buffer.subarray(HEADER_SIZE, HEADER_SIZE + length)),
      });
      this.buffer = this.buffer.subarray(HEADER_SIZE + length);
    }
    return packets;
  }
}

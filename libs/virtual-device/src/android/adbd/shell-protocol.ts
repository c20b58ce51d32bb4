/**
 * The shell protocol of `shell,v2:` streams (AOSP `shell_protocol.h`): packets of a 1-byte id, a 4-byte
 * little-endian length and the data.
 */
export const SHELL_ID = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  exit: 3,
  closeStdin: 4,
  windowSizeChange: 5,
} as const;

export const SHELL_HEADER_SIZE = 5;

/** Packets of `id` holding `data`, each (header included) at most `maxPacket` bytes. */
export function encodeShellPackets(id: number, data: Uint8Array, maxPacket: number): Buffer[] {
  const room = Math.max(1, maxPacket - SHELL_HEADER_SIZE);
  const out: Buffer[] = [];
  let offset = 0;
  do {
    const part = data.subarray(offset, Math.min(data.length, offset + room));
    const packet = Buffer.allocUnsafe(SHELL_HEADER_SIZE + part.length);
    packet[0] = id;
    packet.writeUInt32LE(part.length, 1);
    packet.set(part, SHELL_HEADER_SIZE);
    out.push(packet);
    offset += part.length;
  } while (offset < data.length);
  return out;
}

/** Longest control packet (window size is ASCII "rowsxcols,xpixelsxypixels") we keep; longer ones are skipped. */
const MAX_CONTROL_DATA = 64;

/**
 * Decodes the host's shell-protocol packets as they arrive. Stdin data is passed on piece by piece (no packet
 * is buffered whole), so a large packet needs no large buffer; unknown ids are skipped as adbd does.
 */
export class ShellPacketDecoder {
  private header = Buffer.alloc(SHELL_HEADER_SIZE);
  private headerFill = 0;
  private id = -1;
  private left = 0;
  private control: Buffer[] = [];
  private controlSize = 0;

  constructor(
    private readonly on: {
      stdin(data: Buffer): void;
      closeStdin(): void;
      windowSize(text: string): void;
    },
  ) {}

  push(data: Buffer): void {
    let offset = 0;
    while (offset < data.length) {
      if (this.id < 0) {
        const used = Math.min(SHELL_HEADER_SIZE - this.headerFill, data.length - offset);
        data.copy(this.header, this.headerFill, offset, offset + used);
        this.headerFill += used;
        offset += used;
        if (this.headerFill < SHELL_HEADER_SIZE) return;
        this.headerFill = 0;
        this.id = this.header[0];
        this.left = this.header.readUInt32LE(1);
        this.control = [];
        this.controlSize = 0;
        if (this.left === 0) this.finishPacket();
        continue;
      }
      const used = Math.min(this.left, data.length - offset);
      const part = data.subarray(offset, offset + used);
      offset += used;
      this.left -= used;
      if (this.id === SHELL_ID.stdin) this.on.stdin(part);
      else if (this.controlSize + part.length <= MAX_CONTROL_DATA) {
        this.control.push(part);
        this.controlSize += part.length;
      }
      if (this.left === 0) this.finishPacket();
    }
  }

  private finishPacket(): void {
    const id = this.id;
    this.id = -1;
    if (id === SHELL_ID.closeStdin) this.on.closeStdin();
    else if (id === SHELL_ID.windowSizeChange) this.on.windowSize(Buffer.concat(this.control).toString('latin1'));
  }
}

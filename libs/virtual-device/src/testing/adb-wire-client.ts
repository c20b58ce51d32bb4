import { connect, type Socket } from 'node:net';
import {
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  encodePacket,
  MAX_PAYLOAD,
  PacketReader,
  type Packet,
} from '../android/adbd/packet';

/**
 * A minimal host side of the ADB transport for specs that need what the real `adb` cannot do on purpose
 * (split or broken packets, two streams read side by side, an unacknowledged WRTE).
 */
export interface WireStream {
  readonly localId: number;
  readonly remoteId: number;
  /** Everything the device wrote so far. */
  readonly received: Buffer[];
  /** One WRTE; resolves on the device's OKAY. */
  write(data: Uint8Array): Promise<void>;
  /** Resolves with all the bytes once the device closes the stream. */
  readAll(): Promise<Buffer>;
  /** Our CLSE. */
  close(): void;
  /** Resolves when the device has sent CLSE. */
  readonly closed: Promise<void>;
  /** Set false to hold back OKAYs (flow-control specs); `ack()` sends one. */
  autoAck: boolean;
  ack(): void;
}

export interface WireClient {
  readonly socket: Socket;
  /** Resolves when the TCP connection ends (either side). */
  readonly ended: Promise<void>;
  sendRaw(bytes: Uint8Array): void;
  send(packet: Packet, withChecksum?: boolean): void;
  /** Our CNXN; resolves with the device's. */
  handshake(options?: { version?: number; maxPayload?: number; checksum?: boolean }): Promise<Packet>;
  /** OPEN; resolves with the stream on OKAY, undefined on CLSE. `autoAck: false` holds OKAYs from the start. */
  open(service: string, options?: { autoAck?: boolean }): Promise<WireStream | undefined>;
  /** OPEN that must succeed: rejects on CLSE. */
  stream(service: string, options?: { autoAck?: boolean }): Promise<WireStream>;
  /** The next packet that is not for an opened stream (CNXN, a refusal…). */
  nextPacket(): Promise<Packet>;
  close(): void;
}

export async function connectWire(port: number, host = '127.0.0.1'): Promise<WireClient> {
  const socket = connect(port, host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const ended = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
  const reader = new PacketReader(
    () => 16 * 1024 * 1024,
    () => false,
  );
  let nextId = 100;
  let checksums = true;
  const streams = new Map<number, StreamState>();
  const pendingOpens = new Map<number, (p: Packet) => void>();
  const loose: Packet[] = [];
  let looseWaiter: ((p: Packet) => void) | undefined;

  const send = (packet: Packet, withChecksum = checksums): void => {
    socket.write(encodePacket(packet, withChecksum));
  };

  interface StreamState {
    stream: WireStream;
    onPacket(p: Packet): void;
  }

  socket.on('data', (data: Buffer) => {
    for (const p of reader.push(data)) {
      const state = streams.get(p.arg1);
      if (state && (p.command === A_WRTE || p.command === A_OKAY || p.command === A_CLSE) && p.arg0 !== 0) {
        state.onPacket(p);
        continue;
      }
      const opening = pendingOpens.get(p.arg1);
      if (opening && (p.command === A_OKAY || p.command === A_CLSE)) {
        pendingOpens.delete(p.arg1);
        opening(p);
        continue;
      }
      if (looseWaiter) {
        const w = looseWaiter;
        looseWaiter = undefined;
        w(p);
      } else loose.push(p);
    }
  });

  const makeStream = (localId: number, remoteId: number): StreamState => {
    const received: Buffer[] = [];
    let okayWaiter: (() => void) | undefined;
    let closeResolve!: () => void;
    const closed = new Promise<void>((resolve) => (closeResolve = resolve));
    const ack = (): void => send({ command: A_OKAY, arg0: localId, arg1: remoteId, payload: Buffer.alloc(0) });
    const stream: WireStream = {
      localId,
      remoteId,
      received,
      autoAck: true,
      ack,
      closed,
      write: (data) =>
        new Promise<void>((resolve) => {
          okayWaiter = resolve;
          send({ command: A_WRTE, arg0: localId, arg1: remoteId, payload: Buffer.from(data) });
        }),
      readAll: async () => {
        await closed;
        return Buffer.concat(received);
      },
      close: () => send({ command: A_CLSE, arg0: localId, arg1: remoteId, payload: Buffer.alloc(0) }),
    };
    return {
      stream,
      onPacket: (p) => {
        if (p.command === A_WRTE) {
          received.push(p.payload);
          if (stream.autoAck) ack();
        } else if (p.command === A_OKAY) {
          const w = okayWaiter;
          okayWaiter = undefined;
          w?.();
        } else {
          streams.delete(localId);
          closeResolve();
        }
      },
    };
  };

  const client: WireClient = {
    socket,
    ended,
    sendRaw: (bytes) => socket.write(bytes),
    send,
    handshake: (options = {}) => {
      checksums = options.checksum ?? true;
      send(
        {
          command: A_CNXN,
          arg0: options.version ?? A_VERSION,
          arg1: options.maxPayload ?? MAX_PAYLOAD,
          payload: Buffer.from('host::features=shell_v2,stat_v2,ls_v2\0'),
        },
        checksums,
      );
      return new Promise<Packet>((resolve) => {
        looseWaiter = resolve;
      });
    },
    open: (service, options = {}) =>
      new Promise((resolve) => {
        const localId = nextId++;
        pendingOpens.set(localId, (p) => {
          if (p.command === A_CLSE) return resolve(undefined);
          const state = makeStream(localId, p.arg0);
          state.stream.autoAck = options.autoAck ?? true;
          streams.set(localId, state);
          resolve(state.stream);
        });
        send({ command: A_OPEN, arg0: localId, arg1: 0, payload: Buffer.from(`${service}\0`) });
      }),
    stream: async (service, options) => {
      const opened = await client.open(service, options);
      if (!opened) throw new Error(`the device refused ${service}`);
      return opened;
    },
    nextPacket: () =>
      new Promise<Packet>((resolve) => {
        const p = loose.shift();
        if (p) resolve(p);
        else looseWaiter = resolve;
      }),
    close: () => socket.destroy(),
  };
  return client;
}

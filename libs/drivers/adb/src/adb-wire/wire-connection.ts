import type { Socket } from 'node:net';
import { AdbServerFailure } from '../adb-server/adb-server-client';
import { AdbTransportError } from '../adb-server/socket-reader';
import { connectTcp } from '../tcp-connect';
import type { AdbKey } from './adb-key';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_VERSION_MIN,
  A_VERSION_SKIP_CHECKSUM,
  A_WRTE,
  AUTH_RSAPUBLICKEY,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  encodePacket,
  MAX_PAYLOAD,
  PacketDecoder,
  WireProtocolError,
  type Packet,
} from './packet';
import { WireStream, type StreamPackets } from './wire-stream';

/*
 * One TCP connection to a phone's adbd, host side of AOSP `protocol.txt`: CNXN (with AUTH when the phone asks),
 * then any number of streams at once (OPEN → OKAY … WRTE/OKAY … CLSE), each with its own local id. Written
 * from AOSP adb.cpp `handle_packet`, client/auth.cpp `send_auth_response`/`send_auth_publickey`, and
 * transport.cpp; tested against the virtual adbd.
 */

/** What we tell the phone about ourselves: only what this host really speaks (the shell protocol). */
const HOST_BANNER = 'host::features=shell_v2';
const EMPTY = Buffer.alloc(0);

/** Where the handshake is, for a caller that waits for it. */
export type HandshakeState = 'connecting' | 'signed' | 'awaiting-approval' | 'online' | 'closed';

/** The phone has not accepted this computer's key (its "Allow debugging?" prompt is showing, or was denied). */
export function unauthorized(detail: string): AdbServerFailure {
  return new AdbServerFailure('auth', `device unauthorized: ${detail}`);
}

export interface WireConnectionOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** This computer's key, loaded on the phone's first AUTH token; undefined: authentication is not possible. */
  key?: () => Promise<AdbKey>;
}

interface PendingOpen {
  resolve: (stream: WireStream) => void;
  reject: (error: Error) => void;
  signal: AbortSignal;
}

export class WireConnection {
  private readonly decoder: PacketDecoder;
  private version = A_VERSION_MIN;
  private maxPayload = MAX_PAYLOAD;
  private nextLocalId = 0;
  private readonly streams = new Map<number, WireStream>();
  private readonly opening = new Map<number, PendingOpen>();
  /** Local ids whose OPEN was given up before the phone answered: their OKAY gets a CLSE. */
  private readonly abandoned = new Set<number>();
  private readonly handshakeWaiters = new Set<{ resolve: () => void; reject: (error: Error) => void }>();
  private closedBy: Error | undefined;
  state: HandshakeState = 'connecting';
  /** The device's features from its CNXN banner (`…;features=shell_v2,cmd,…`). */
  features: ReadonlySet<string> = new Set();

  private constructor(private readonly socket: Socket, private readonly options: WireConnectionOptions) {
    this.decoder = new PacketDecoder(() => this.maxPayload);
    socket.setKeepAlive(true, 30_000);
    socket.on('data', (data: Buffer) => this.receive(data));
    socket.on('error', (error) => this.close(new AdbTransportError('closed', error.message)));
    socket.on('close', () => this.close(new AdbTransportError('closed', 'the phone closed the connection')));
    this.send({ command: A_CNXN, arg0: A_VERSION, arg1: MAX_PAYLOAD, payload: Buffer.from(HOST_BANNER, 'utf8') });
  }

  /** A TCP connection (bounded by the connect timeout and the signal) that has sent its CNXN. */
  static async open(options: WireConnectionOptions, signal: AbortSignal): Promise<WireConnection> {
    const socket = await connectTcp({ host: options.host, port: options.port, connectTimeoutMs: options.connectTimeoutMs, peer: 'the phone' }, signal);
    return new WireConnection(socket, options);
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /**
   * Resolves once the phone answered CNXN. While the phone shows its prompt for our key, a caller is told so at
   * once (unauthorized) and the connection stays, so that the next call works once the user allowed it.
   */
  ready(signal: AbortSignal): Promise<void> {
    if (this.state === 'online') return Promise.resolve();
    if (this.closedBy) return Promise.reject(this.closedBy);
    if (this.state === 'awaiting-approval') return Promise.reject(unauthorized('waiting for the user to allow this computer'));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (error: Error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = (): void => {
        this.handshakeWaiters.delete(waiter);
        reject(new AdbTransportError('aborted', 'the phone did not answer the connection in time'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.handshakeWaiters.add(waiter);
    });
  }

  /** Opens a service (`shell,v2,raw:…`, `exec:…`); a phone that refuses it (CLSE) fails with "closed". */
  async openStream(service: string, signal: AbortSignal): Promise<WireStream> {
    await this.ready(signal);
    if (this.closedBy) throw this.closedBy;
    if (signal.aborted) throw new AdbTransportError('aborted', 'the call was cancelled');
    const localId = this.allocateId();
    return new Promise<WireStream>((resolve, reject) => {
      const sentAt = Date.now();
      const onAbort = (): void => {
        const pending = this.opening.get(localId);
        if (!pending) return;
        pending.reject(new AdbTransportError('aborted', 'the call was cancelled'));
        // adbd answers an OPEN at once (OKAY or CLSE): one left unanswered longer than a connect may take means
        // the connection is dead without having closed (the phone left the network); the next call opens a new
        // one. A caller that merely gave up early leaves the connection alone.
        if (Date.now() - sentAt >= this.options.connectTimeoutMs) {
          this.close(new AdbTransportError('closed', 'the phone stopped answering on this connection'));
        }
      };
      this.opening.set(localId, {
        signal,
        resolve: (stream) => {
          signal.removeEventListener('abort', onAbort);
          resolve(stream);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          this.opening.delete(localId);
          this.abandoned.add(localId);
          reject(error);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.send({ command: A_OPEN, arg0: localId, arg1: 0, payload: Buffer.from(`${service}\0`, 'utf8') });
    });
  }

  /** Drops the connection: every open stream and waiter fails with `error`. */
  close(error: Error = new AdbTransportError('closed', 'the connection was closed')): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.closedBy = error;
    this.socket.destroy();
    const failure = error instanceof AdbTransportError ? error : new AdbTransportError('closed', error.message);
    for (const stream of this.streams.values()) stream.fail(failure);
    this.streams.clear();
    for (const pending of [...this.opening.values()]) pending.reject(error);
    for (const waiter of [...this.handshakeWaiters]) waiter.reject(error);
    this.handshakeWaiters.clear();
  }

  private allocateId(): number {
    do {
      this.nextLocalId = this.nextLocalId >= 0x7fffffff ? 1 : this.nextLocalId + 1;
    } while (this.streams.has(this.nextLocalId) || this.opening.has(this.nextLocalId));
    return this.nextLocalId;
  }

  private send(packet: Packet): void {
    if (this.state === 'closed' || this.socket.destroyed) return;
    this.socket.write(encodePacket(packet, this.version < A_VERSION_SKIP_CHECKSUM));
  }

  private receive(data: Buffer): void {
    if (this.state === 'closed') return;
    try {
      for (const packet of this.decoder.push(data)) {
        this.handle(packet);
        if (this.isClosed) return;
      }
    } catch (error) {
      this.close(new AdbTransportError('protocol', error instanceof WireProtocolError ? error.message : String(error)));
    }
  }

  private handle(p: Packet): void {
    switch (p.command) {
      case A_CNXN:
        return this.handleConnect(p);
      case A_AUTH:
        return this.handleAuth(p);
      case A_OKAY: {
        const pending = this.opening.get(p.arg1);
        if (pending) {
          this.opening.delete(p.arg1);
          const stream = new WireStream(p.arg1, p.arg0, this.packetsOf(p.arg1, p.arg0), pending.signal);
          this.streams.set(p.arg1, stream);
          pending.resolve(stream);
          return;
        }
        if (this.abandoned.delete(p.arg1)) {
          this.send({ command: A_CLSE, arg0: p.arg1, arg1: p.arg0, payload: EMPTY });
          return;
        }
        // The acknowledgement of a WRTE of ours.
        const stream = this.streams.get(p.arg1);
        if (stream && stream.remoteId === p.arg0) stream.acknowledge();
        return;
      }
      case A_WRTE: {
        const stream = this.streams.get(p.arg1);
        if (stream && stream.remoteId === p.arg0) {
          this.send({ command: A_OKAY, arg0: p.arg1, arg1: p.arg0, payload: EMPTY });
          stream.push(p.payload);
        }
        return;
      }
      case A_CLSE: {
        const pending = this.opening.get(p.arg1);
        // The phone refused the service (unknown, or not offered by its Android version).
        if (pending) return pending.reject(new AdbServerFailure('open', 'closed'));
        this.abandoned.delete(p.arg1);
        const stream = this.streams.get(p.arg1);
        if (stream) {
          this.streams.delete(p.arg1);
          stream.end();
        }
        return;
      }
      default:
        return; // OPEN from the phone (reverse forwarding) and STLS are not offered: ignored
    }
  }

  private handleConnect(p: Packet): void {
    if (p.arg0 < A_VERSION_MIN || p.arg1 < 1024) throw new WireProtocolError('the phone announced an unusable version or payload size');
    if (this.state === 'online') {
      // The phone started over (adbd restarted the transport): the old streams are gone.
      for (const stream of this.streams.values()) stream.fail(new AdbTransportError('closed', 'the phone reset the connection'));
      this.streams.clear();
    }
    this.version = Math.min(p.arg0, A_VERSION);
    this.maxPayload = Math.min(p.arg1, MAX_PAYLOAD);
    const banner = p.payload.toString('utf8');
    const features = /(?:^|;)features=([^;]*)/.exec(banner)?.[1] ?? '';
    this.features = new Set(features.split(',').filter(Boolean));
    this.state = 'online';
    for (const waiter of [...this.handshakeWaiters]) waiter.resolve();
    this.handshakeWaiters.clear();
  }

  /**
   * The phone's challenge. The first token is signed with our key; a second one means the phone does not know
   * the key: it gets the public key and shows its prompt (callers are told at once; the connection waits).
   */
  private handleAuth(p: Packet): void {
    if (p.arg0 !== AUTH_TOKEN || this.state === 'online') return;
    const key = this.options.key;
    if (!key) {
      this.close(unauthorized('the phone requires authentication and no key is configured'));
      return;
    }
    if (this.state === 'connecting') {
      this.state = 'signed';
      const token = Buffer.from(p.payload);
      key().then(
        (loaded) => {
          const signature = loaded.sign(token);
          if (signature) this.send({ command: A_AUTH, arg0: AUTH_SIGNATURE, arg1: 0, payload: signature });
          else this.close(new AdbTransportError('protocol', `the phone sent an authentication token of ${token.length} bytes`));
        },
        (error: unknown) => this.close(new Error(`this computer's debugging key cannot be read or made: ${error instanceof Error ? error.message : String(error)}`)),
      );
      return;
    }
    if (this.state === 'signed') {
      this.state = 'awaiting-approval';
      key().then(
        (loaded) => this.send({ command: A_AUTH, arg0: AUTH_RSAPUBLICKEY, arg1: 0, payload: Buffer.from(`${loaded.publicKey}\0`, 'utf8') }),
        (error: unknown) => this.close(error instanceof Error ? error : new Error(String(error))),
      );
      const refusal = unauthorized('waiting for the user to allow this computer');
      for (const waiter of [...this.handshakeWaiters]) waiter.reject(refusal);
      this.handshakeWaiters.clear();
    }
  }

  private packetsOf(localId: number, remoteId: number): StreamPackets {
    return {
      write: (payload) => this.send({ command: A_WRTE, arg0: localId, arg1: remoteId, payload }),
      close: () => this.closeStream(localId, remoteId),
      maxPayload: () => this.maxPayload,
    };
  }

  private closeStream(localId: number, remoteId: number): void {
    if (this.streams.get(localId)?.remoteId !== remoteId) return;
    this.streams.delete(localId);
    this.send({ command: A_CLSE, arg0: localId, arg1: remoteId, payload: EMPTY });
  }
}

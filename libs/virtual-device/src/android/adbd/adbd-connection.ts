import type { Socket } from 'node:net';
import { AUTH_RSAPUBLICKEY, AUTH_SIGNATURE, AUTH_TOKEN, newToken, verifySignature, type AdbdAuth } from './auth';
import type { AdbDeviceBackend } from './device-backend';
import { DeviceStream, type StreamLimits, type StreamTransport } from './device-stream';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_STLS,
  A_VERSION,
  A_VERSION_MIN,
  A_VERSION_SKIP_CHECKSUM,
  A_WRTE,
  encodePacket,
  MAX_PAYLOAD,
  MAX_PAYLOAD_V1,
  PacketReader,
  ProtocolError,
  type Packet,
} from './packet';
import { openService, type OpenedService } from './services';
import type { SyncLimits } from './sync-service';

export interface ConnectionConfig {
  backend: AdbDeviceBackend;
  /** The CNXN payload: `device::ro.product.name=…;…;features=…`. */
  banner: string;
  streamLimits: StreamLimits;
  sync: SyncLimits;
  maxStreams: number;
  tcpConnectTimeoutMs: number;
  /** A connection that has not sent CNXN by then is dropped. */
  handshakeTimeoutMs: number;
  /** Require RSA authentication (`ro.adb.secure=1`); absent: the host's CNXN is answered at once. */
  auth?: AdbdAuth;
}

/** Unsent bytes in the socket above which streams stop sending WRTEs until it drains. */
const SOCKET_BUFFER_LIMIT = 4 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/**
 * One host connection (`adb.cpp` handle_packet, device side). Without `auth`, like an adbd with
 * `ro.adb.secure=0`, the host's CNXN is answered with ours straight away; with it, the host must first
 * authenticate (auth.ts).
 */
export class AdbdConnection {
  private online = false;
  /** The token of the AUTH challenge in progress (after the host's CNXN, before ours). */
  private token: Buffer | undefined;
  /** A key offered to the prompt, waiting for its answer. */
  private prompting = false;
  private version = A_VERSION_MIN;
  private maxPayload = MAX_PAYLOAD;
  private nextLocalId = 1;
  private readonly streams = new Map<number, DeviceStream>();
  private readonly reader: PacketReader;
  private closed = false;
  private pendingOpens = 0;
  private readonly handshakeTimer: NodeJS.Timeout;
  /** Bumped when the streams are reset (a new CNXN), so a service opened for the old session is dropped. */
  private generation = 0;
  private readonly transport: StreamTransport;

  constructor(
    private readonly socket: Socket,
    private readonly config: ConnectionConfig,
    private readonly onClosed: () => void,
  ) {
    this.reader = new PacketReader(
      () => this.maxPayload,
      // CNXN says its own version; from 0x01000001 on the host sends no checksum.
      (command, arg0) => (command === A_CNXN ? arg0 : this.version) < A_VERSION_SKIP_CHECKSUM,
    );
    this.transport = {
      send: (packet) => this.send(packet),
      maxPayload: () => this.maxPayload,
      // A host that OKAYs without reading would otherwise pile WRTEs up in our socket buffer.
      canWrite: () => this.socket.writableLength <= SOCKET_BUFFER_LIMIT,
      release: (stream) => {
        if (this.streams.get(stream.localId) === stream) this.streams.delete(stream.localId);
      },
    };
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.receive(data));
    socket.on('drain', () => {
      for (const stream of [...this.streams.values()]) stream.resume();
    });
    this.handshakeTimer = setTimeout(() => {
      if (!this.online) this.close();
    }, config.handshakeTimeoutMs);
    this.handshakeTimer.unref();
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  get streamCount(): number {
    return this.streams.size;
  }

  /** Drops the connection; every stream's session is aborted. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.handshakeTimer);
    this.socket.destroy();
    this.resetStreams();
    this.onClosed();
  }

  private receive(data: Buffer): void {
    if (this.closed) return;
    try {
      for (const packet of this.reader.push(data)) {
        this.handle(packet);
        if (this.closed) return;
      }
    } catch (error) {
      // Garbage, a protocol violation, or a bug in a service: the connection goes, the process stays.
      if (!(error instanceof ProtocolError)) process.emitWarning(`adbd: connection dropped: ${String(error)}`);
      this.close();
    }
  }

  private handle(p: Packet): void {
    switch (p.command) {
      case A_CNXN:
        return this.handleConnect(p);
      case A_AUTH:
        return this.handleAuth(p);
      case A_STLS:
        return; // never asked for: no TLS
      case A_OPEN:
        if (this.online) this.handleOpen(p);
        return;
      case A_OKAY: {
        if (!this.online || p.arg0 === 0 || p.arg1 === 0) return;
        const stream = this.streams.get(p.arg1);
        if (stream && stream.remoteId === p.arg0) stream.handleOkay();
        return;
      }
      case A_WRTE: {
        if (!this.online || p.arg0 === 0 || p.arg1 === 0) return;
        const stream = this.streams.get(p.arg1);
        if (stream && stream.remoteId === p.arg0) stream.handleWrite(p.payload);
        return;
      }
      case A_CLSE: {
        if (!this.online || p.arg1 === 0) return;
        const stream = this.streams.get(p.arg1);
        if (stream && (p.arg0 === 0 || p.arg0 === stream.remoteId)) stream.handleRemoteClose();
        return;
      }
    }
  }

  private handleConnect(p: Packet): void {
    if (p.arg0 < A_VERSION_MIN) throw new ProtocolError(`unsupported version 0x${p.arg0.toString(16)}`);
    if (p.arg1 < MAX_PAYLOAD_V1) throw new ProtocolError(`maxdata ${p.arg1} is too small`);
    // A new CNXN on a live connection starts over, as adbd does (handle_offline).
    this.resetStreams();
    this.online = false;
    this.version = Math.min(p.arg0, A_VERSION);
    this.maxPayload = Math.min(p.arg1, MAX_PAYLOAD);
    if (this.config.auth) this.challenge();
    else this.goOnline();
  }

  private goOnline(): void {
    this.token = undefined;
    this.online = true;
    this.send({ command: A_CNXN, arg0: A_VERSION, arg1: this.maxPayload, payload: Buffer.from(this.config.banner, 'utf8') });
  }

  /** `send_auth_request`: a fresh token for the host to sign. */
  private challenge(): void {
    this.token = newToken();
    this.send({ command: A_AUTH, arg0: AUTH_TOKEN, arg1: 0, payload: this.token });
  }

  /** The host's answer to our token: a signature to verify, or its public key for the prompt. */
  private handleAuth(p: Packet): void {
    const auth = this.config.auth;
    if (!auth || !this.token || this.online) return;
    if (p.arg0 === AUTH_SIGNATURE) {
      if (verifySignature(auth.trustedKeys, this.token, p.payload)) this.goOnline();
      else this.challenge();
      return;
    }
    if (p.arg0 === AUTH_RSAPUBLICKEY && !this.prompting) {
      const key = stripTrailingNuls(p.payload).toString('utf8');
      if (!auth.allow) return; // no one to ask: the host waits, as with a prompt nobody answers
      this.prompting = true;
      const generation = this.generation;
      void Promise.resolve()
        .then(() => auth.allow?.(key))
        .then(
          (allowed) => {
            this.prompting = false;
            if (!allowed || this.closed || this.online || generation !== this.generation) return;
            auth.trustedKeys.add(key);
            this.goOnline();
          },
          () => {
            this.prompting = false;
          },
        );
      return;
    }
    if (p.arg0 !== AUTH_RSAPUBLICKEY) throw new ProtocolError(`unknown AUTH type ${p.arg0}`);
  }

  private handleOpen(p: Packet): void {
    const remoteId = p.arg0;
    if (remoteId === 0) return;
    // A non-zero arg1 is a delayed-ack send buffer; this adbd does not offer delayed_ack.
    if (p.arg1 !== 0 || this.streams.size + this.pendingOpens >= this.config.maxStreams) {
      this.send({ command: A_CLSE, arg0: 0, arg1: remoteId, payload: EMPTY });
      return;
    }
    this.pendingOpens++;
    void this.openStream(remoteId, stripTrailingNuls(p.payload).toString('utf8'))
      .catch(() => this.close())
      .finally(() => this.pendingOpens--);
  }

  /** OKAY and the running service, or CLSE(0, remote) when the service is unknown or refused. */
  private async openStream(remoteId: number, name: string): Promise<void> {
    const generation = this.generation;
    const refuse = (): void => this.send({ command: A_CLSE, arg0: 0, arg1: remoteId, payload: EMPTY });
    let service: OpenedService | undefined;
    try {
      service = await openService(name, {
        backend: this.config.backend,
        maxPayload: this.maxPayload,
        sync: this.config.sync,
        tcpConnectTimeoutMs: this.config.tcpConnectTimeoutMs,
      });
    } catch {
      return refuse();
    }
    if (this.closed || generation !== this.generation) return service?.cancel();
    if (!service) return refuse();
    const stream = new DeviceStream(this.allocateId(), remoteId, this.transport, this.config.streamLimits);
    this.streams.set(stream.localId, stream);
    this.send({ command: A_OKAY, arg0: stream.localId, arg1: remoteId, payload: EMPTY });
    try {
      service.start(stream);
    } catch {
      stream.close();
    }
  }

  private allocateId(): number {
    do {
      this.nextLocalId = this.nextLocalId >= 0x7fffffff ? 1 : this.nextLocalId + 1;
    } while (this.streams.has(this.nextLocalId));
    return this.nextLocalId;
  }

  private resetStreams(): void {
    this.generation++;
    for (const stream of [...this.streams.values()]) stream.handleRemoteClose();
    this.streams.clear();
  }

  private send(packet: Packet): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodePacket(packet, this.version < A_VERSION_SKIP_CHECKSUM));
  }
}

function stripTrailingNuls(payload: Buffer): Buffer {
  let end = payload.length;
  while (end > 0 && payload[end - 1] === 0) end--;
  return payload.subarray(0, end);
}

import { createServer, type Socket } from 'node:net';
import { ApexError } from '@apex/errors';
import { assertSafeOpenBind } from '@apex/serve-security';
import { AdbdConnection } from './adbd-connection';
import type { AdbdAuth } from './auth';
import type { AdbDeviceBackend, AdbIdentity } from './device-backend';
import { MAX_PAYLOAD, MAX_PAYLOAD_V1 } from './packet';

/**
 * The features this adbd really implements (names from AOSP `transport.cpp` kFeature*): shell protocol,
 * stat/list v2, send/recv v2 without compression, and SEND creating missing parent directories.
 */
export const ADBD_FEATURES: readonly string[] = ['shell_v2', 'stat_v2', 'ls_v2', 'fixed_push_mkdir', 'sendrecv_v2'];

export interface AdbdOptions {
  backend: AdbDeviceBackend;
  /** 0 (default) = a free port. */
  port?: number;
  /** Loopback only (default 127.0.0.1): the virtual phone is never exposed to the network. */
  host?: string;
  /**
   * Feature names the backend's shell makes true beyond the wire protocol, e.g. `cmd` when it answers
   * `cmd package …` (the host then installs through `cmd` instead of `pm`).
   */
  extraFeatures?: readonly string[];
  /** Largest file a push may write (default 64 MiB; the files are in memory). */
  maxPushBytes?: number;
  /** Shell output queued for a slow host before the stream is cut (default 16 MiB). */
  maxQueuedOutput?: number;
  /** Streams one connection may hold open (default 256). */
  maxStreams?: number;
  /** Host connections at once (default 16). */
  maxConnections?: number;
  /** How long `tcp:PORT` waits for the backend's connection (default 10 s). */
  tcpConnectTimeoutMs?: number;
  /** A connection that sends no CNXN within this is dropped (default 30 s). */
  handshakeTimeoutMs?: number;
  /**
   * Require RSA authentication, as a phone with `ro.adb.secure=1` does (default: none, `ro.adb.secure=0`): the
   * host signs a token with a trusted key, or offers its key to `allow` (the phone's prompt).
   */
  auth?: AdbdAuth;
}

export interface Adbd {
  port: number;
  /** What `adb connect` and `adb -s` call this device: `127.0.0.1:PORT`. */
  serial: string;
  /** The features the CNXN banner advertises. */
  features: readonly string[];
  /** Host connections open now. */
  connectionCount(): number;
  /** Stops listening and drops every connection (their sessions are aborted). */
  close(): Promise<void>;
}

/** Feature and property values may not hold the banner's separators. */
const BANNER_UNSAFE = /[;:=,\s]/g;

export function connectionBanner(identity: AdbIdentity, features: readonly string[]): string {
  const clean = (v: string): string => v.replace(/[;:=,]/g, '_');
  return (
    `device::ro.product.name=${clean(identity.product)};ro.product.model=${clean(identity.model)};` +
    `ro.product.device=${clean(identity.device)};features=${features.map((f) => f.replace(BANNER_UNSAFE, '_')).join(',')}`
  );
}

/** Starts the device side of ADB over TCP; the real `adb connect 127.0.0.1:PORT` talks to it. */
export async function startAdbd(options: AdbdOptions): Promise<Adbd> {
  const host = options.host ?? '127.0.0.1';
  assertSafeOpenBind(host, false, 'the virtual adbd');
  const features = [...new Set([...ADBD_FEATURES, ...(options.extraFeatures ?? [])])];
  const banner = connectionBanner(options.backend.identity, features);
  if (Buffer.byteLength(banner) > MAX_PAYLOAD_V1) throw new Error(`the adbd banner is longer than ${MAX_PAYLOAD_V1} bytes`);
  const maxConnections = options.maxConnections ?? 16;
  const config = {
    backend: options.backend,
    banner,
    streamLimits: {
      maxQueuedOutput: options.maxQueuedOutput ?? 16 * 1024 * 1024,
      inboundHighWater: MAX_PAYLOAD,
    },
    sync: { maxPushBytes: options.maxPushBytes ?? 64 * 1024 * 1024 },
    maxStreams: options.maxStreams ?? 256,
    tcpConnectTimeoutMs: options.tcpConnectTimeoutMs ?? 10_000,
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 30_000,
    auth: options.auth,
  };

  const connections = new Set<AdbdConnection>();
  const server = createServer((socket: Socket) => {
    if (connections.size >= maxConnections) {
      socket.destroy();
      return;
    }
    const connection: AdbdConnection = new AdbdConnection(socket, config, () => connections.delete(connection));
    connections.add(connection);
  });
  server.on('error', () => undefined); // after listen: a failed accept must not crash the process

  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ApexError('invalid_argument', `Port ${options.port} on ${host} is already in use.`, { hint: 'Choose another port, or 0 for a free one.', cause: error })
          : error,
      );
    server.once('error', refuse);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    serial: host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`,
    features,
    connectionCount: () => connections.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of [...connections]) c.close();
        server.close(() => resolve());
      }),
  };
}

import type { Socket } from 'node:net';
import type { DeviceStream } from './device-stream';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * The port of `tcp:PORT` or `tcp:HOST:PORT` with a local host (`socket_spec.cpp`); `null` for any other host
 * (adbd refuses "arbitrary tcp connections"), undefined when the name is not a tcp service at all.
 */
export function parseTcpService(name: string): number | null | undefined {
  if (!name.startsWith('tcp:')) return undefined;
  const rest = name.slice('tcp:'.length);
  const colon = rest.lastIndexOf(':');
  const host = colon < 0 ? undefined : rest.slice(0, colon);
  const portText = colon < 0 ? rest : rest.slice(colon + 1);
  if (host !== undefined && !LOCAL_HOSTS.has(host.toLowerCase())) return null;
  if (!/^\d{1,5}$/.test(portText)) return null;
  const port = Number(portText);
  return port >= 1 && port <= 65535 ? port : null;
}

/** Passes bytes both ways between a stream and a socket, with backpressure on both sides. */
export function bridgeTcp(stream: DeviceStream, socket: Socket, maxPayload: number): void {
  socket.on('data', (data: Buffer) => {
    stream.write(data);
    socket.pause();
    void stream.whenDrained(maxPayload).then(() => {
      if (!stream.isClosed) socket.resume();
    });
  });
  socket.on('end', () => stream.end());
  socket.on('close', () => stream.end());
  socket.on('error', () => stream.end());
  stream.onData = (chunk) => {
    if (socket.destroyed) {
      stream.consumed(chunk.length);
      return;
    }
    // OKAY to the host once the bytes are handed to the kernel.
    socket.write(chunk, () => stream.consumed(chunk.length));
  };
  stream.signal.addEventListener('abort', () => socket.destroy(), { once: true });
}

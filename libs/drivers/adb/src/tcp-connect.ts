import { connect, type Socket } from 'node:net';
import { AdbTransportError } from './adb-server/socket-reader';

export interface TcpEndpoint {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** Whom the connect timeout names: "the server", "the phone". */
  peer: string;
}

/**
 * A TCP connection (no Nagle: adb's packets are small and answered one by one), bounded by the connect timeout
 * and the signal; every failure is an `AdbTransportError` and leaves no socket behind.
 */
export function connectTcp(endpoint: TcpEndpoint, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new AdbTransportError('aborted', 'the call was cancelled'));
      return;
    }
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    socket.setNoDelay(true);
    const done = (error?: AdbTransportError): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('connect', onConnect);
      if (error) {
        socket.destroy();
        reject(error);
      } else resolve(socket);
    };
    const onConnect = (): void => done();
    const onError = (error: NodeJS.ErrnoException): void =>
      done(new AdbTransportError(error.code === 'ECONNREFUSED' ? 'refused' : 'closed', error.message));
    const onAbort = (): void => done(new AdbTransportError('aborted', 'the call was cancelled'));
    const timer = setTimeout(() => done(new AdbTransportError('connect_timeout', `no connection to ${endpoint.peer} in time`)), endpoint.connectTimeoutMs);
    socket.once('connect', onConnect);
    socket.once('error', onError);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

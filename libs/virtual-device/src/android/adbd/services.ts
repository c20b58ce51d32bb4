import type { Socket } from 'node:net';
import type { AdbDeviceBackend } from './device-backend';
import type { DeviceStream } from './device-stream';
import { parseShellService, runShell } from './shell-service';
import { runSync, type SyncLimits } from './sync-service';
import { bridgeTcp, parseTcpService } from './tcp-service';

/** A service ready to run on a stream (after our OKAY), or to be dropped when the connection went away first. */
export interface OpenedService {
  start(stream: DeviceStream): void;
  cancel(): void;
}

export interface ServiceContext {
  backend: AdbDeviceBackend;
  maxPayload: number;
  sync: SyncLimits;
  tcpConnectTimeoutMs: number;
}

/**
 * What a user build answers for the privileged services: `root:`/`unroot:` (`daemon/restart_service.cpp`) and
 * `remount:` (`/system/bin/remount` as the shell user); this device never reboots.
 */
const REFUSALS: Array<[prefix: string, text: string]> = [
  ['root:', 'adbd cannot run as root in production builds\n'],
  ['unroot:', 'adbd not running as root\n'],
  ['remount:', 'Not running as root. Try "adb root" first.\n'],
  ['reboot:', 'reboot: Operation not permitted\n'],
];

const noop = (): void => undefined;

/** The device services of `daemon/services.cpp` that this adbd has; undefined = unknown or refused (CLSE). */
export async function openService(name: string, ctx: ServiceContext): Promise<OpenedService | undefined> {
  const shell = parseShellService(name);
  if (shell) return { start: (s) => runShell(s, shell, ctx.backend.shell, ctx.maxPayload), cancel: noop };

  if (name.startsWith('sync:')) return { start: (s) => runSync(s, ctx.backend.files, ctx.sync), cancel: noop };

  const port = parseTcpService(name);
  if (port !== undefined) {
    if (port === null || !ctx.backend.connectTcp) return undefined;
    const socket = await connectWithTimeout(ctx.backend, port, ctx.tcpConnectTimeoutMs);
    if (!socket) return undefined;
    return { start: (s) => bridgeTcp(s, socket, ctx.maxPayload), cancel: () => socket.destroy() };
  }

  const refusal = REFUSALS.find(([prefix]) => name.startsWith(prefix));
  if (refusal) {
    return {
      start: (s) => {
        s.write(Buffer.from(refusal[1]));
        s.end();
      },
      cancel: noop,
    };
  }
  return undefined;
}

async function connectWithTimeout(backend: AdbDeviceBackend, port: number, timeoutMs: number): Promise<Socket | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const attempt = Promise.resolve()
    .then(() => backend.connectTcp?.(port))
    .catch(() => undefined);
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve(undefined);
    }, timeoutMs);
  });
  const socket = await Promise.race([attempt, timeout]);
  clearTimeout(timer);
  // A connection that arrives after we gave up is closed, not leaked.
  if (timedOut) void attempt.then((late) => late?.destroy());
  return socket ?? undefined;
}

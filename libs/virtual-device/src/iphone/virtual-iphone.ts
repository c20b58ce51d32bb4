import { z } from 'zod';
import { invalidInput } from '@apex/errors';
import { assertSafeOpenBind } from '@apex/serve-security';
import type { FaultController } from './faults/fault-controller';
import { randomUUID } from 'node:crypto';
import { PROFILES, DEFAULT_PROFILE_ID } from '.';
import { OsLog, type CrashFile } from './device/diagnostics';
import { VirtualPhone } from './virtual-phone';
import type { Phone } from './model';
import { MjpegServer, type FrameClock } from './wda/mjpeg-server';
import { WdaServer } from './wda/server';
import { DEFAULT_SETTINGS } from './wda/settings';

export interface VirtualIPhoneOptions {
  /** 0 = a free ephemeral port (default). */
  port?: number;
  /**
   * Also serve the screen as an MJPEG stream on this port, as a real phone's agent does on 9100 (0 = a free
   * port). Absent: no stream.
   */
  mjpegPort?: number;
  /** The stream's frame timer (tests). */
  mjpegClock?: FrameClock;
  /** Default 127.0.0.1. Any other address needs `allowRemote`: the phone has no authentication. */
  host?: string;
  /** Allows a non-loopback `host` and answers any Host name (default false). */
  allowRemote?: boolean;
  /**
   * Mounts the fault admin path `/__apex/faults` (default false: it is then an unknown command, 404).
   * `VirtualIPhone.faults` works in-process either way.
   */
  faults?: boolean;
  /** A key of PROFILES: 'iphone-15' (default), 'iphone-15-plus' or 'iphone-se'. */
  profile?: string;
  appearance?: 'light' | 'dark';
  deviceName?: string;
  /** `undetermined`: Photos asks for library access on its next launch (default `full`). */
  photoLibraryAccess?: 'undetermined' | 'full';
  /** An iOS update waiting to be installed ("iOS 17.6"): Settings shows "Software Update Available" at the top. */
  softwareUpdate?: string;
}

export interface VirtualIPhone {
  /** e.g. http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  readonly phone: Phone;
  /** The screen stream's port, when `mjpegPort` was given. */
  readonly mjpegPort?: number;
  /** Clients receiving the screen stream now (0 without one). */
  streamViewers(): number;
  /** In-process fault injection (always available; over HTTP only with `faults: true`). */
  readonly faults: FaultController;
  /**
   * The phone's log and crash reports as a Mac's simulator tools read a simulator's (`log show --style ndjson`
   * lines, DiagnosticReports `.ips` files). In-process only: the WebDriverAgent face has no route for them, as
   * a real agent has none.
   */
  readonly diagnostics: PhoneDiagnostics;
  /** Stops the server and closes every connection. */
  close(): Promise<void>;
}

/** What a simulator's host tools give of it, for this phone (see VirtualIPhone.diagnostics). */
export interface PhoneDiagnostics {
  /** `log show --style ndjson` lines from `sinceMs` on (all kept lines when undefined), oldest first. */
  logLines(sinceMs: number | undefined, signal: AbortSignal): AsyncIterable<string>;
  crashFiles(signal: AbortSignal): Promise<CrashFile[]>;
}

/** The diagnostics of an in-memory phone. */
export function phoneDiagnostics(phone: VirtualPhone): PhoneDiagnostics {
  const bootUUID = randomUUID().toUpperCase();
  return {
    async *logLines(sinceMs, signal) {
      for (const entry of phone.osLog.read(sinceMs)) {
        if (signal.aborted) return;
        yield OsLog.ndjson(entry, bootUUID);
      }
    },
    crashFiles: async () => phone.crashReports.list(),
  };
}

export const DEFAULT_HOST = '127.0.0.1';

export const virtualIPhoneOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65535).optional(),
    mjpegPort: z.number().int().min(0).max(65535).optional(),
    mjpegClock: z.custom<FrameClock>((value) => typeof (value as FrameClock | undefined)?.after === 'function').optional(),
    host: z.string().min(1).max(255).optional(),
    allowRemote: z.boolean().optional(),
    faults: z.boolean().optional(),
    profile: z
      .string()
      .refine((id) => Object.prototype.hasOwnProperty.call(PROFILES, id), {
        message: `must be one of ${Object.keys(PROFILES).join(', ')}`,
      })
      .optional(),
    appearance: z.enum(['light', 'dark']).optional(),
    deviceName: z.string().min(1).max(64).optional(),
    photoLibraryAccess: z.enum(['undetermined', 'full']).optional(),
    softwareUpdate: z.string().min(1).max(64).optional(),
  })
  .strict();

/** The URL a client on this machine uses: wildcard binds are reached through loopback. */
function urlFor(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Starts a virtual iPhone that speaks WebDriverAgent's HTTP protocol. Rejects with an ApexError on bad options,
 * a non-loopback host without `allowRemote`, or a taken port.
 */
export async function startVirtualIPhone(options: VirtualIPhoneOptions = {}): Promise<VirtualIPhone> {
  const parsed = virtualIPhoneOptionsSchema.safeParse(options);
  if (!parsed.success) throw invalidInput(parsed.error.issues, 'virtual iPhone options');
  const { port = 0, mjpegPort, mjpegClock, host = DEFAULT_HOST, allowRemote = false, faults = false, profile = DEFAULT_PROFILE_ID, appearance, deviceName, photoLibraryAccess, softwareUpdate } = parsed.data;
  assertSafeOpenBind(host, allowRemote, 'the virtual iPhone');
  const phone = new VirtualPhone({ profile, appearance, deviceName, photoLibraryAccess, softwareUpdate });
  let mjpeg: MjpegServer | undefined;
  // A command that changed the screen starts its next stream frame's encoding at once, not at the next tick.
  const server = new WdaServer(phone, { host, port, allowRemote, faults, onScreenChange: () => mjpeg?.prepare() });
  await server.listen();
  if (mjpegPort !== undefined) {
    // WDA keeps one set of settings, changed through the session's /appium/settings.
    mjpeg = new MjpegServer(phone, { host, port: mjpegPort, allowRemote, clock: mjpegClock, settings: () => server.face.session?.settings ?? DEFAULT_SETTINGS });
    try {
      await mjpeg.listen();
    } catch (error) {
      await server.close();
      throw error;
    }
  }
  const url = urlFor(host, server.port);
  return {
    url,
    port: server.port,
    mjpegPort: mjpeg?.port,
    streamViewers: () => mjpeg?.viewerCount ?? 0,
    phone,
    faults: server.faults,
    diagnostics: phoneDiagnostics(phone),
    close: async () => {
      await Promise.all([server.close(), mjpeg?.close()]);
    },
  };
}

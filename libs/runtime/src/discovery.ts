import * as path from 'node:path';
import { createServer } from 'node:net';
import { ApexError } from '@apex/errors';
import { DevicePreparation, type DeviceHub } from '@apex/hub';
import { createAdbDriver, trackAdbDevices, type AdbDeviceEntry } from '@apex/driver-adb';
import { createSimctlControl, createWdaDriver } from '@apex/driver-wda';
import { AGENT_PHASE_WORDS, AgentSetupError, launchAgent, listBootedSimulators, listUsbIPhones, type AgentTarget, type RunningAgent, type UsbTools } from '@apex/ios-host';
import type { DeviceDriver } from '@apex/port';
import { DEFAULT_ADB_SERVER, type ApexConfig } from './config';
import { hostPort } from './drivers';
import { refusingDriver } from './refusing-driver';
import { agentProjectPath, goIosBinary } from './doctor';
import type { Logger } from './logger';

/**
 * Phones found on their own: the adb server's devices (followed live: a phone plugged in appears at once),
 * booted simulators and USB iPhones (read every `scanMs`; for each, the automation agent is built, started and
 * forwarded before the phone is registered, and until then it is listed offline with a note saying which phase
 * it is in, or what to fix). Ids are the serial / UDID made safe for an id, so they are stable across runs.
 */

export interface DeviceDiscoveryOptions {
  hub: DeviceHub;
  config?: ApexConfig;
  env?: NodeJS.ProcessEnv;
  /** Agent builds are cached under `<dataDir>/agents`. */
  dataDir: string;
  logger: Logger;
  /** How often simulators and USB iPhones are looked for (default 5 s). */
  scanMs?: number;
  /** Which kinds to look for (default both). */
  android?: boolean;
  ios?: boolean;
  /** How long preparing one iPhone may take (default 10 min: the first build of the agent takes minutes). */
  prepareTimeoutMs?: number;
}

/** A serial or UDID as a device id: letters, digits, '.', '_' and '-' (`127.0.0.1:5555` → `127.0.0.1-5555`). */
export function deviceIdOfSerial(serial: string): string {
  const id = serial.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return id || 'device';
}

const ANDROID_NOTES: Record<string, string> = {
  unauthorized: 'waiting for authorization: unlock the phone and accept the "Allow USB debugging?" dialog',
  authorizing: 'authorizing: unlock the phone',
  offline: 'offline: reconnect the phone',
  connecting: 'connecting',
  'no permissions': 'no permission to use this USB device: add a udev rule for it, then reconnect it',
};

/** Stands in for a phone's driver until it is ready: every call answers device_offline with the note. */
function notReadyDriver(platform: 'ios' | 'android', note: () => string): DeviceDriver {
  return refusingDriver(platform, () => new ApexError('device_offline', `The device is not ready: ${note()}.`, { hint: 'Wait, or run `apex doctor` for what is missing.' }));
}

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}


interface Found {
  id: string;
  /** Ready: registered with its real driver. */
  ready: boolean;
  note?: string;
  agent?: RunningAgent;
  /** An iPhone's preparation (agent built, started, forwarded), which calls on it wait for. */
  preparation?: DevicePreparation;
}

export class DeviceDiscovery {
  private readonly closing = new AbortController();
  private readonly found = new Map<string, Found>();
  private readonly loops: Promise<void>[] = [];
  /** One per kind of phone looked for: settled once that kind has been looked for once. */
  private readonly firstLooks: Promise<void>[] = [];
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: DeviceDiscoveryOptions) {
    this.env = options.env ?? process.env;
  }

  start(): void {
    if (this.options.android !== false) this.loops.push(this.followAndroid(this.firstLook()));
    if (this.options.ios !== false) this.loops.push(this.scanIPhones(this.firstLook()));
  }

  /**
   * Resolves once every kind of phone has been looked for once (the adb server's first list, or its absence;
   * one scan for simulators and USB iPhones): what `apex devices --discover` lists. iPhones found are then
   * still being prepared, listed with their phase.
   */
  async looked(): Promise<void> {
    await Promise.all(this.firstLooks);
  }

  private firstLook(): () => void {
    let done!: () => void;
    this.firstLooks.push(new Promise<void>((resolve) => (done = resolve)));
    return done;
  }

  /** The ids of the phones found so far (ready or not). */
  ids(): string[] {
    return [...this.found.keys()];
  }

  async close(): Promise<void> {
    this.closing.abort();
    for (const found of this.found.values()) found.agent?.stop();
    await Promise.allSettled(this.loops);
  }

  private get closed(): boolean {
    return this.closing.signal.aborted;
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.closing.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }

  /**
   * Registers a phone that is not ready yet, listed offline with its note, or `preparing` with its phase while
   * its `preparation` is under way (calls on it wait for that).
   */
  private registerPending(id: string, name: string, platform: 'ios' | 'android', note: string, preparation?: DevicePreparation): Found {
    const found: Found = { id, ready: false, note, preparation };
    this.found.set(id, found);
    const noteOf = () => found.note ?? 'not ready';
    // `preparing` while the agent is built and started, `offline` while the phone waits for the person (or failed).
    const poolState = () => (preparation?.preparing ? 'preparing' : 'offline');
    this.options.hub.register({ id, name, driver: notReadyDriver(platform, noteOf), poolState, note: () => found.note, preparation });
    return found;
  }

  private async registerReady(found: Found, name: string, driver: DeviceDriver): Promise<void> {
    await this.options.hub.unregister(found.id);
    if (this.closed) return;
    found.ready = true;
    found.note = undefined;
    this.options.hub.register({ id: found.id, name, driver });
  }

  private async followAndroid(looked: () => void): Promise<void> {
    const server = hostPort(this.options.config?.android?.adbServer ?? DEFAULT_ADB_SERVER);
    try {
      while (!this.closed) {
        try {
          for await (const list of trackAdbDevices(server, this.closing.signal)) {
            await this.onAndroidList(server, list);
            looked();
          }
        } catch (error) {
          if (this.closed) return;
          this.options.logger.debug({ err: error }, 'the adb server is not answering; looking again shortly');
        }
        looked();
        await this.pause(2_000);
      }
    } finally {
      looked();
    }
  }

  private async onAndroidList(server: { host: string; port: number }, list: AdbDeviceEntry[]): Promise<void> {
    for (const entry of list) {
      const id = deviceIdOfSerial(entry.serial);
      const name = entry.model?.replace(/_/g, ' ') ?? entry.serial;
      const known = this.found.get(id);
      if (known?.ready) continue; // a ready phone that goes away is marked offline by the hub's probes
      if (entry.state === 'device') {
        const found = known ?? this.registerPending(id, name, 'android', 'connecting');
        const driver = createAdbDriver({ deviceId: id, server, device: { serial: entry.serial } });
        await this.registerReady(found, name, driver);
        this.options.logger.info({ deviceId: id }, 'found an Android phone');
      } else if (known) {
        known.note = ANDROID_NOTES[entry.state] ?? entry.state;
      } else {
        this.registerPending(id, name, 'android', ANDROID_NOTES[entry.state] ?? entry.state);
      }
    }
  }

  private async scanIPhones(looked: () => void): Promise<void> {
    const ios = this.options.config?.ios;
    try {
      while (!this.closed) {
        try {
          const signal = AbortSignal.any([this.closing.signal, AbortSignal.timeout(30_000)]);
          const [simulators, usb] = await Promise.all([
            listBootedSimulators({ signal, env: this.env }),
            listUsbIPhones(goIosBinary(ios?.goIos), { signal, env: this.env }),
          ]);
          for (const sim of simulators) this.prepareIPhone({ udid: sim.udid, kind: 'simulator', name: sim.name });
          for (const phone of usb.devices) this.prepareIPhone({ udid: phone.udid, kind: 'device', name: phone.name ?? phone.model }, usb.tools);
        } catch (error) {
          if (this.closed) return;
          this.options.logger.warn({ err: error }, 'looking for iPhones failed');
        }
        looked();
        await this.pause(this.options.scanMs ?? 5_000);
      }
    } finally {
      looked();
    }
  }

  /** Starts preparing an iPhone seen for the first time (in the background; the scan goes on). */
  private prepareIPhone(target: AgentTarget, usbTools?: UsbTools): void {
    const id = deviceIdOfSerial(target.udid);
    if (this.found.has(id)) return;
    const name = target.name ?? target.udid;
    const firstPhase = AGENT_PHASE_WORDS.checking;
    const preparation = new DevicePreparation(id, firstPhase);
    const found = this.registerPending(id, name, 'ios', `preparing: ${firstPhase}`, preparation);
    const ios = this.options.config?.ios;
    const project = agentProjectPath(ios?.agentProject);
    const prepare = async () => {
      if (!project) throw new AgentSetupError('project_missing', 'The automation agent project was not found.', 'Install it (npm i appium-webdriveragent) or set ios.agentProject.');
      const agent = await launchAgent(target, {
        projectPath: project,
        cacheDir: path.join(this.options.dataDir, 'agents'),
        teamId: ios?.teamId,
        hostPort: await freeLoopbackPort(),
        iosBinary: goIosBinary(ios?.goIos),
        usbTools,
        env: this.env,
        onPhase: (phase, detail) => {
          if (phase === 'ready') return;
          const words = AGENT_PHASE_WORDS[phase];
          found.note = `preparing: ${words}`;
          preparation.enter(words);
          // One log line per phase: the first build takes minutes, and a person watching the CLI sees where it is.
          this.options.logger.info({ deviceId: id, phase, detail }, `preparing ${name}: ${words}`);
        },
        signal: AbortSignal.any([this.closing.signal, AbortSignal.timeout(this.options.prepareTimeoutMs ?? 600_000)]),
      });
      found.agent = agent;
      // A simulator's host tools (install, permissions, …, its log and crash reports) are Xcode's on this Mac; a USB
      // iPhone installs builds through go-ios (the same binary as its port forward).
      const simulator = target.kind === 'simulator' ? createSimctlControl({ deviceId: id, udid: target.udid, env: this.env }) : undefined;
      const usbIPhone = target.kind === 'device' ? { udid: target.udid, goIos: goIosBinary(ios?.goIos), env: this.env } : undefined;
      await this.registerReady(found, name, createWdaDriver({ deviceId: id, url: agent.url, simulator, usbIPhone }));
      // After registering: a call woken by it finds the ready phone.
      preparation.succeed();
      this.options.logger.info({ deviceId: id, url: agent.url }, 'prepared an iPhone');
    };
    this.loops.push(
      prepare().catch((error: unknown) => {
        if (this.closed) return;
        const failure =
          error instanceof ApexError ? error : new ApexError('device_error', `${name} could not be prepared.`, { hint: 'Run `apex doctor`; the cause is in the Apex log.', cause: error });
        found.note = `${failure.message}${failure.hint ? ` ${failure.hint}` : ''}`;
        // Calls waiting for the phone, and later ones, fail with this error and its fix.
        preparation.fail(failure);
        this.options.logger.warn({ deviceId: id, err: error }, 'preparing an iPhone failed');
      }),
    );
  }
}

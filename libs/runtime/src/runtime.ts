import { DeviceHub, resolveLease, type DeviceHubOptions, type Lease, type LeaseOptions } from '@apex/hub';
import { Perception } from '@apex/perception';
import type { AnyOperation, StepScreenshots } from '@apex/capability';
import { ALL_OPERATIONS, createTaskService, flowJsonSchema, resolveDataDir, type TaskService } from '@apex/tasks';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { loadConfig, type ApexConfig, type DeviceConfig } from './config';
import { openDeviceLease } from './device-lock';
import { addressOf, lockTargetOf, registrationFor } from './drivers';
import { GridDiscovery } from './grid-discovery';
import { createLogger, type Logger } from './logger';

export const EMBEDDED_DEVICE_ID = 'iphone-virtual';
export const EMBEDDED_DEVICE_NAME = 'Virtual iPhone';

export interface RuntimeOptions {
  /** A JSON configuration file; otherwise `APEX_CONFIG`; otherwise the embedded virtual iPhone. */
  configPath?: string;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Overrides APEX_DATA_DIR, the config's dataDir and ~/.apex (in that order; see resolveDataDir). */
  dataDir?: string;
  logger?: Logger;
  /** Hub settings (back-off, default limits), mainly for tests. */
  hub?: Omit<DeviceHubOptions, 'logger'>;
  /** Ownership of phones and tasks: lease period, renewal and clock (15 s / 5 s by default), mainly for tests. */
  lease?: Omit<LeaseOptions, 'instance'>;
}

const DAY_MS = 24 * 60 * 60_000;

/** A device as the runtime set it up. */
export interface RuntimeDevice {
  id: string;
  name: string;
  /** Which driver serves it ('wda' for the embedded virtual iPhone too). */
  driver: DeviceConfig['driver'];
  /** The device's automation server (`url` of a wda entry, `serverUrl` of an appium entry, a grid's hub). */
  url: string;
  /** True when no ownership lease is kept (config `shared`, or the embedded phone this process owns anyway). */
  shared: boolean;
  embedded: boolean;
}

export interface Runtime {
  readonly hub: DeviceHub;
  /** Finding and describing over the hub; its OCR workers start on first use and stop on close(). */
  readonly perception: Perception;
  /** The configured devices, then the phones of the grids (kept up to date as the grids change). */
  readonly devices: readonly RuntimeDevice[];
  /** The device labs of the configuration, each refreshed on its period; `refresh()` reads one now. */
  readonly grids: readonly GridDiscovery[];
  /** The in-process virtual iPhone when started without a configuration. */
  readonly embedded?: VirtualIPhone;
  /** The validated configuration, when one was given. */
  readonly config?: ApexConfig;
  readonly dataDir: string;
  readonly logger: Logger;
  /** This process as an owner (a random instance id) and its lease settings, for phones and tasks alike. */
  readonly lease: Lease;
  /**
   * Agent tasks, kept in SQLite under `dataDir`. Created on first use (queued tasks of an earlier run resume
   * then), so commands that never touch tasks never open the store; closed before perception and the hub.
   */
  readonly tasks: TaskService;
  /** The step screenshots of the tasks, for the faces (the task service, opened on first use). */
  readonly stepScreenshots: StepScreenshots;
  /** The catalog the faces serve over this runtime: the device operations and the task operations. */
  readonly operations: readonly AnyOperation[];
  /** The JSON Schema of flow files, for editors (REST `GET /flows/schema`). */
  readonly flowSchema: Readonly<Record<string, unknown>>;
  /** Closes services, the hub (drivers and sessions), the embedded phone, and gives the phones' leases up. */
  close(): Promise<void>;
}

/**
 * The composition root: configuration → drivers → hub (or the embedded virtual iPhone, registered through
 * the same driver a real phone uses). Device ownership is taken here: a phone another Apex process holds is
 * registered anyway, listed `busy` with its owner, and taken over when that process's lease lapses. If
 * anything fails, whatever was started is undone before the error leaves.
 */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger();
  const configPath = options.configPath ?? (env.APEX_CONFIG ? env.APEX_CONFIG : undefined);
  const config = configPath ? await loadConfig(configPath) : undefined;
  const dataDir = resolveDataDir({ explicit: options.dataDir, configured: config?.dataDir }, env);
  const lease = resolveLease(options.lease);

  const closers: (() => Promise<void> | void)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        logger.warn({ err: error }, 'closing a runtime part failed');
      }
    }
  };

  const hub = new DeviceHub({ ...options.hub, logger });
  const devices: RuntimeDevice[] = [];
  const grids: GridDiscovery[] = [];
  let embedded: VirtualIPhone | undefined;
  try {
    if (config) {
      for (const device of config.devices) {
        const shared = device.shared ?? false;
        const registration = registrationFor(device, env);
        if (!shared) {
          const target = lockTargetOf(device);
          const deviceLease = await openDeviceLease({ dataDir, deviceId: device.id, ...target, lease, logger });
          closers.push(() => deviceLease.close());
          registration.heldBy = () => deviceLease.heldBy();
        }
        hub.register(registration);
        devices.push({ id: device.id, name: device.name ?? device.id, driver: device.driver, url: addressOf(device), shared, embedded: false });
      }
    } else {
      // With its screen stream on another free port, as a real phone's agent serves one.
      const phone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
      embedded = phone;
      closers.push(() => phone.close());
      hub.register(
        registrationFor({ id: EMBEDDED_DEVICE_ID, name: EMBEDDED_DEVICE_NAME, driver: 'wda', url: phone.url, mjpegPort: phone.mjpegPort }, process.env, { iosDiagnostics: phone.diagnostics }),
      );
      devices.push({ id: EMBEDDED_DEVICE_ID, name: EMBEDDED_DEVICE_NAME, driver: 'wda', url: phone.url, shared: true, embedded: true });
      logger.info({ url: phone.url }, 'no configuration: started the embedded virtual iPhone');
    }
    // Closed before the phone and the locks (pushed after them, closed in reverse).
    closers.push(() => hub.close());
    for (const grid of config?.grids ?? []) {
      const discovery = new GridDiscovery({
        grid,
        hub,
        logger,
        env,
        onAdded: ({ id, name, url }) => devices.push({ id, name, driver: 'appium', url, shared: true, embedded: false }),
        onRemoved: (id) => {
          const index = devices.findIndex((device) => device.id === id);
          if (index >= 0) devices.splice(index, 1);
        },
      });
      // Its phones leave the hub before the hub closes (closed in reverse).
      closers.push(() => discovery.close());
      grids.push(discovery);
      await discovery.refresh();
      discovery.start();
    }
  } catch (error) {
    await hub.close();
    await closeAll();
    throw error;
  }

  const perception = new Perception(hub, { logger });
  const services: (() => Promise<void> | void)[] = [() => perception.close()];
  let closed: Promise<void> | undefined;
  let tasks: TaskService | undefined;
  let flowSchema: Readonly<Record<string, unknown>> | undefined;
  const runtime: Runtime = {
    hub,
    perception,
    devices,
    grids,
    embedded,
    config,
    dataDir,
    logger,
    lease,
    operations: ALL_OPERATIONS,
    // Built on first use (REST's GET /flows/schema): converting the flow schema costs start-up ~7 ms.
    get flowSchema() {
      flowSchema ??= flowJsonSchema();
      return flowSchema;
    },
    get stepScreenshots() {
      return runtime.tasks;
    },
    get tasks() {
      if (!tasks) {
        const { planners, keepTypedText, maxQueuedPerDevice, retention } = config?.tasks ?? {};
        const created = createTaskService({
          context: { hub, perception },
          dataDir,
          env,
          logger,
          lease,
          planners,
          keepTypedText,
          maxQueuedPerDevice,
          retention: {
            maxAgeMs: retention?.maxAgeDays === undefined ? undefined : retention.maxAgeDays * DAY_MS,
            maxFinished: retention?.maxFinished,
          },
        });
        services.push(() => created.close());
        tasks = created;
      }
      return tasks;
    },
    close() {
      closed ??= (async () => {
        for (const close of services.splice(0).reverse()) {
          try {
            await close();
          } catch (error) {
            logger.warn({ err: error }, 'closing a runtime service failed');
          }
        }
        await closeAll();
      })();
      return closed;
    },
  };
  return runtime;
}

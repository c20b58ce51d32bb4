import { join } from 'node:path';
import { DeviceHub, resolveLease, type DeviceHubOptions, type Lease, type LeaseOptions } from '@apex/hub';
import { Perception } from '@apex/perception';
import type { AnyOperation, OperationForwarder, StepScreenshots } from '@apex/capability';
import { RECORDING_OPERATIONS, RecordingService, taskRecorder } from '@apex/recording';
import { ALL_OPERATIONS, createTaskService, flowJsonSchema, resolveDataDir, type TaskService } from '@apex/tasks';
import { createVirtualAndroid, startAdbd, startVirtualIPhone, type Adbd, type VirtualAndroid, type VirtualIPhone } from '@apex/virtual-device';
import { loadConfig, type ApexConfig, type DeviceConfig } from './config';
import { databaseUrlOf, TaskCluster } from './cluster';
import { openDeviceLease } from './device-lock';
import { DeviceDiscovery } from './discovery';
import { addressOf, lockTargetOf, registrationFor } from './drivers';
import { GridDiscovery } from './grid-discovery';
import { createLogger, type Logger } from './logger';
import { virtualSimulatorControl } from './virtual-simulator';

/** The embedded virtual iPhone: started, with the virtual Android, when there is no configuration; the default device then. */
export const EMBEDDED_DEVICE_ID = 'iphone-virtual';
export const EMBEDDED_DEVICE_NAME = 'Virtual iPhone';
/** The embedded virtual Android phone, driven through its adbd on a free 127.0.0.1 port. */
export const EMBEDDED_ANDROID_ID = 'android-virtual';
export const EMBEDDED_ANDROID_NAME = 'Virtual Android';

/** The embedded virtual Android phone and the adbd in front of it. */
export interface EmbeddedAndroid {
  readonly android: VirtualAndroid;
  readonly adbd: Adbd;
}

export interface RuntimeOptions {
  /** A JSON configuration file; otherwise `APEX_CONFIG`; otherwise the embedded virtual phones (iPhone and Android). */
  configPath?: string;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Overrides APEX_DATA_DIR, the config's dataDir and ~/.apex (in that order; see resolveDataDir). */
  dataDir?: string;
  logger?: Logger;
  /** Hub settings (back-off, default limits), mainly for tests. */
  hub?: Omit<DeviceHubOptions, 'logger'>;
  /**
   * Look for phones on this machine (booted simulators, USB iPhones, the adb server's phones; see discovery.ts):
   * `auto` (what `apex serve` and `apex mcp` pass) when the configuration lists no device, or says `discover`;
   * default: only when the configuration says `discover: true`. `APEX_DISCOVER=0` turns it off, except when
   * asked for by name (`true`: `apex devices --discover`).
   */
  discover?: boolean | 'auto';
  /**
   * Whether the embedded virtual phones start when the configuration lists no device (default true); false
   * (`--no-virtual`) leaves only what is configured or discovered.
   */
  virtual?: boolean;
  /** Ownership of phones and tasks: lease period, renewal and clock (15 s / 5 s by default), mainly for tests. */
  lease?: Omit<LeaseOptions, 'instance'>;
  /**
   * How operations on the phones of other nodes reach them (config `cluster.listAll`): the app passes the
   * REST client (`createRestForwarder` of @apex/rest; the runtime may not name a face), made with the
   * cluster's token and limit.
   */
  forwarder?: (settings: { token?: string; timeoutMs?: number }) => OperationForwarder;
}

const DAY_MS = 24 * 60 * 60_000;

/** A device as the runtime set it up. */
export interface RuntimeDevice {
  id: string;
  name: string;
  /** Which driver serves it ('wda' for the embedded virtual iPhone, 'adb' for the embedded virtual Android). */
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
  /** The phones found on this machine, when the runtime looks for them (see RuntimeOptions.discover). */
  readonly discovery?: DeviceDiscovery;
  /** The in-process virtual Android phone (and its adbd) when started without a configuration. */
  readonly embeddedAndroid?: EmbeddedAndroid;
  /** The validated configuration, when one was given. */
  readonly config?: ApexConfig;
  readonly dataDir: string;
  /** The folders install_app and add_media may read (config `apps.allowedRoots`, else the working directory and dataDir). */
  readonly appRoots: readonly string[];
  readonly logger: Logger;
  /** This process as an owner (a random instance id) and its lease settings, for phones and tasks alike. */
  readonly lease: Lease;
  /**
   * Agent tasks, kept in SQLite under `dataDir` (or the cluster's PostgreSQL database). Created on first use (queued tasks of an earlier run resume
   * then), so commands that never touch tasks never open the store; closed before perception and the hub.
   */
  readonly tasks: TaskService;
  /** The step screenshots of the tasks, for the faces (the task service, opened on first use). */
  readonly stepScreenshots: StepScreenshots;
  /**
   * The screen recordings, kept under `dataDir/recordings` (config `recordings.maxBytes`) and, in a cluster, in
   * the shared database too; recordings in progress are completed on close(), before the hub closes.
   */
  readonly recordings: RecordingService;
  /** The catalog the faces serve over this runtime: the device, task and recording operations. */
  readonly operations: readonly AnyOperation[];
  /** The JSON Schema of flow files, for editors (REST `GET /flows/schema`). */
  readonly flowSchema: Readonly<Record<string, unknown>>;
  /** Sends operations on the phones other nodes hold to those nodes (config `cluster.listAll` with a shared store). */
  readonly forwarder?: OperationForwarder;
  /**
   * Tells the other nodes of a cluster where this node's REST API answers (config `cluster.url` wins over
   * `url`), for the operations they forward to it. Nothing without a cluster.
   */
  advertise(url: string): void;
  /** Closes services, the hub (drivers and sessions), the embedded phones, and gives the phones' leases up. */
  close(): Promise<void>;
}

/**
 * The composition root: configuration → drivers → hub (or the embedded virtual iPhone and Android phone, each
 * registered through the driver a real phone uses: WebDriverAgent's protocol, adb's wire protocol). Device
 * ownership is taken here: a phone another Apex process holds is registered anyway, listed `busy` with its
 * owner, and taken over when that process's lease lapses. If anything fails, whatever was started is undone
 * before the error leaves.
 */
function shouldDiscover(option: RuntimeOptions['discover'], config: ApexConfig | undefined, env: NodeJS.ProcessEnv): boolean {
  // Asked for by name (`apex devices --discover`): over the environment's default.
  if (option === true) return true;
  if (env.APEX_DISCOVER === '0') return false;
  if (config?.discover !== undefined) return config.discover;
  // A cluster node with listAll and no phone of its own is a front for the other nodes: nothing to look for.
  return option === 'auto' && (config?.devices.length ?? 0) === 0 && config?.cluster?.listAll !== true;
}

export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger();
  const configPath = options.configPath ?? (env.APEX_CONFIG ? env.APEX_CONFIG : undefined);
  const config = configPath ? await loadConfig(configPath) : undefined;
  const dataDir = resolveDataDir({ explicit: options.dataDir, configured: config?.dataDir }, env);
  // The config's lease settings, then the caller's (tests) over them.
  const lease = resolveLease({ leaseMs: config?.cluster?.leaseMs, renewMs: config?.cluster?.renewMs, ...options.lease });

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

  // Without a configuration the iPhone takes calls that name no device, as it did when it was the only phone.
  const hub = new DeviceHub({ ...options.hub, logger, defaultDevice: config ? config.defaultDevice : EMBEDDED_DEVICE_ID });
  const devices: RuntimeDevice[] = [];
  const grids: GridDiscovery[] = [];
  let embedded: VirtualIPhone | undefined;
  let embeddedAndroid: EmbeddedAndroid | undefined;
  let discovery: DeviceDiscovery | undefined;
  let cluster: TaskCluster | undefined;
  try {
    const databaseUrl = databaseUrlOf(config, env);
    if (databaseUrl) {
      const opened = await TaskCluster.open(databaseUrl, lease, logger);
      cluster = opened;
      // Closed last (pushed first, closed in reverse): the device leases and tasks live in it.
      closers.push(() => opened.close());
      // The state of each phone this node holds, for the others' lists: its hub's, once registered and held here.
      opened.reportStates((id) => {
        if (!hub.has(id)) return undefined;
        const summary = hub.summary(id);
        return summary.owner || summary.node ? undefined : summary.state;
      });
    }
    if (config) {
      for (const device of config.devices) {
        const shared = device.shared ?? false;
        const registration = registrationFor(device, env, { dataDir });
        if (!shared) {
          const target = lockTargetOf(device);
          const backend = cluster?.leaseBackend({ deviceId: device.id, name: device.name ?? device.id, platform: registration.driver.platform });
          const deviceLease = await openDeviceLease({ dataDir, deviceId: device.id, ...target, lease, logger, backend });
          closers.push(() => deviceLease.close());
          registration.heldBy = () => deviceLease.heldBy();
          // Held by another node (reaching the phone too, say through a Grid): with listAll, its operations go there.
          const held = cluster;
          if (held && config.cluster?.listAll) {
            registration.node = () => (deviceLease.heldBy() ? held.nodeHolding(device.id) : undefined);
            registration.nodeReport = () => held.reportOf(device.id);
          }
        }
        hub.register(registration);
        devices.push({ id: device.id, name: device.name ?? device.id, driver: device.driver, url: addressOf(device), shared, embedded: false });
      }
    } else if (options.virtual !== false) {
      // With its screen stream on another free port, as a real phone's agent serves one.
      const phone = await startVirtualIPhone({ port: 0, mjpegPort: 0 });
      embedded = phone;
      closers.push(() => phone.close());
      hub.register(
        registrationFor({ id: EMBEDDED_DEVICE_ID, name: EMBEDDED_DEVICE_NAME, driver: 'wda', url: phone.url, mjpegPort: phone.mjpegPort }, env, {
          // Its simulator tools (install, permissions, push, its log and crash reports, …) work on the phone in this process.
          simulator: virtualSimulatorControl(phone, EMBEDDED_DEVICE_ID),
        }),
      );
      devices.push({ id: EMBEDDED_DEVICE_ID, name: EMBEDDED_DEVICE_NAME, driver: 'wda', url: phone.url, shared: true, embedded: true });
      embeddedAndroid = await startEmbeddedAndroid();
      const { adbd } = embeddedAndroid;
      closers.push(() => adbd.close());
      // Straight to its adbd (no adb server, no adb binary): the direct transport a phone on the network uses.
      const android: DeviceConfig = { id: EMBEDDED_ANDROID_ID, name: EMBEDDED_ANDROID_NAME, driver: 'adb', host: adbd.serial };
      hub.register(registrationFor(android, env, { dataDir }));
      devices.push({ id: EMBEDDED_ANDROID_ID, name: EMBEDDED_ANDROID_NAME, driver: 'adb', url: addressOf(android), shared: true, embedded: true });
      logger.info({ url: phone.url, adb: adbd.serial }, 'no configuration: started the embedded virtual iPhone and Android phone');
    }
    // Closed before the phone and the locks (pushed after them, closed in reverse).
    closers.push(() => hub.close());
    if (shouldDiscover(options.discover, config, env)) {
      const looking = new DeviceDiscovery({ hub, config, env, dataDir, logger });
      discovery = looking;
      // Stopped before the hub closes (closed in reverse).
      closers.push(() => looking.close());
      looking.start();
    }
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
    if (cluster) {
      cluster.mirrorRemoteDevices(hub, (id) => devices.some((device) => device.id === id), { listAll: config?.cluster?.listAll });
      await cluster.whenMirrored();
    }
  } catch (error) {
    await hub.close();
    await closeAll();
    throw error;
  }

  const perception = new Perception(hub, { logger });
  const appRoots = config?.apps?.allowedRoots ?? [process.cwd(), dataDir];
  const services: (() => Promise<void> | void)[] = [() => perception.close()];
  let closed: Promise<void> | undefined;
  let tasks: TaskService | undefined;
  let flowSchema: Readonly<Record<string, unknown>> | undefined;
  let recordings: RecordingService | undefined;
  const forwarder =
    cluster && config?.cluster?.listAll
      ? options.forwarder?.({ token: clusterTokenOf(config, env), timeoutMs: config.cluster.forwardTimeoutMs })
      : undefined;
  const runtime: Runtime = {
    hub,
    perception,
    devices,
    grids,
    embedded,
    embeddedAndroid,
    discovery,
    config,
    dataDir,
    appRoots,
    logger,
    lease,
    operations: [...ALL_OPERATIONS, ...RECORDING_OPERATIONS],
    forwarder,
    advertise(url) {
      cluster?.advertise(config?.cluster?.url ?? url);
    },
    // Built on first use (REST's GET /flows/schema): converting the flow schema costs start-up ~7 ms.
    get flowSchema() {
      flowSchema ??= flowJsonSchema();
      return flowSchema;
    },
    get recordings() {
      if (!recordings) {
        // In a cluster, finished recordings are also kept in the shared database: every node serves them.
        const created = new RecordingService({ dir: join(dataDir, 'recordings'), maxBytes: config?.recordings?.maxBytes, logger, shared: cluster?.recordings() });
        services.push(() => created.close());
        recordings = created;
      }
      return recordings;
    },
    get stepScreenshots() {
      return runtime.tasks;
    },
    get tasks() {
      if (!tasks) {
        const { planners, keepTypedText, maxQueuedPerDevice, retention } = config?.tasks ?? {};
        const store = cluster?.taskStore();
        const created = createTaskService({
          context: { hub, perception, appRoots },
          dataDir,
          env,
          logger,
          lease,
          planners,
          keepTypedText,
          maxQueuedPerDevice,
          store,
          // A task with `record: true` records through the runtime's one recording service.
          recorder: taskRecorder(() => runtime.recordings, { hub, perception, appRoots }),
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
  // A node of a cluster takes tasks posted on other nodes for its phones from the start.
  if (cluster) void runtime.tasks;
  return runtime;
}

/** The token sent to other nodes: APEX_CLUSTER_TOKEN, else the config's `cluster.token`, else this node's own APEX_TOKEN. */
function clusterTokenOf(config: ApexConfig | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return env.APEX_CLUSTER_TOKEN || config?.cluster?.token || env.APEX_TOKEN || undefined;
}

/**
 * The virtual Android phone behind an adbd on a free loopback port. Cheap to start: its drawing (the canvas
 * library, fonts) loads on the first screenshot, not here.
 */
async function startEmbeddedAndroid(): Promise<EmbeddedAndroid> {
  const android = createVirtualAndroid();
  // `cmd` is advertised because its shell answers `cmd package …`, as Android 7+ does.
  const adbd = await startAdbd({ backend: android.backend, port: 0, host: '127.0.0.1', extraFeatures: ['cmd'] });
  return { android, adbd };
}

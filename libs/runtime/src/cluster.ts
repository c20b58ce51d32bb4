import { ApexError } from '@apex/errors';
import type { ClusterNode, DeviceHub, DeviceRegistration, DeviceState, Lease, LeaseOwner, NodeReport } from '@apex/hub';
import {
  PostgresDatabase,
  PostgresDeviceLeases,
  PostgresRecordings,
  PostgresStepImages,
  PostgresTaskStore,
  TASKS_CHANNEL,
  type ClusterDevice,
  type OpenedTaskStore,
  type ScreenshotRetention,
} from '@apex/tasks';
import type { ApexConfig } from './config';
import type { DeviceLeaseBackend } from './device-lock';
import type { Logger } from './logger';
import { refusingDriver } from './refusing-driver';

type DeviceDriver = DeviceRegistration['driver'];
type Platform = DeviceDriver['platform'];

/** The shared task database of a cluster, when one is configured: APEX_DATABASE_URL, else the config's `tasks.store.postgres`. */
export function databaseUrlOf(config: ApexConfig | undefined, env: NodeJS.ProcessEnv): string | undefined {
  return env.APEX_DATABASE_URL || config?.tasks?.store?.postgres || undefined;
}

/**
 * Several Apex processes (nodes) sharing one PostgreSQL database: its tasks (one queue), the phones each
 * node holds (device leases: a task runs on the node that holds its device), and the phones of the others,
 * registered here as `busy` with their node so that tasks can be posted for them on any node.
 */
export class TaskCluster {
  /** The phones of other nodes registered here, each with what its registration says (node and address). */
  private readonly remote = new Map<string, string>();
  /** The address this node's REST API answers on, once it listens. */
  private url?: string;
  /** With listAll: the node that holds each phone held elsewhere, as last read (this node's own phones too, when another holds them). */
  private holders = new Map<string, ClusterNode>();
  /** What the holder of each phone held elsewhere last reported of it, as last read. */
  private reports = new Map<string, { state: DeviceState; at: number; node: string }>();
  /** This node's own state of a phone it holds (its hub's), reported with each renewal of its lease. */
  private stateOf: (deviceId: string) => DeviceState | undefined = () => undefined;
  private timer?: NodeJS.Timeout;
  private syncing: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly db: PostgresDatabase,
    readonly leases: PostgresDeviceLeases,
    private readonly lease: Lease,
    private readonly logger: Logger,
  ) {}

  /** Connects and migrates; `unavailable` when the database cannot be reached. */
  static async open(url: string, lease: Lease, logger: Logger): Promise<TaskCluster> {
    const db = await PostgresDatabase.open({ url, logger });
    logger.info({ channel: TASKS_CHANNEL }, 'tasks are kept in the shared PostgreSQL database');
    return new TaskCluster(db, new PostgresDeviceLeases(db, lease), lease, logger);
  }

  /** Where a configured phone's lease is kept: the shared database, by device id (one id per phone across the cluster). */
  leaseBackend(device: { deviceId: string; name: string; platform: Platform }): DeviceLeaseBackend {
    return {
      where: `postgres:${device.deviceId}`,
      claim: async () => {
        const claim = await this.leases.claim(device, this.stateOf(device.deviceId));
        return claim.held ? { held: true } : { held: false, holder: { ...claim.holder, instanceId: '', deviceId: device.deviceId } };
      },
      release: () => this.leases.release(device.deviceId),
    };
  }

  /**
   * Where this node reads the state of the phones it holds, to report it with each lease renewal: the
   * other nodes list a phone this node holds in that state, without asking this node.
   */
  reportStates(stateOf: (deviceId: string) => DeviceState | undefined): void {
    this.stateOf = stateOf;
  }

  /**
   * The phone's state as the node holding it last reported it, as last read; its age said in a note once it is
   * older than a lease period (this node could not read the reports since, say while the database was away).
   */
  reportOf(deviceId: string): NodeReport | undefined {
    const report = this.reports.get(deviceId);
    return report ? reportAsListed(report, this.lease.now(), this.lease.leaseMs) : undefined;
  }

  /** The task store of the task service: tasks and step images in the database, woken by other nodes' announcements. */
  taskStore(): (lease: Lease, retention: ScreenshotRetention) => OpenedTaskStore {
    return (lease, retention) => ({
      tasks: new PostgresTaskStore(this.db, { lease }),
      images: new PostgresStepImages(this.db, retention),
      pollMs: lease.renewMs,
      subscribe: (wake) => this.db.listen(wake),
    });
  }

  /** The finished screen recordings, kept in the database for every node to serve. */
  recordings(): PostgresRecordings {
    return new PostgresRecordings(this.db);
  }

  /**
   * Keeps the phones other nodes hold registered in `hub` (not those of `isLocal`). By default each is `busy`
   * with its node: listed, and taking tasks, which that node runs. With `listAll`, a phone whose node serves a
   * REST API is listed with that node (`node: {id, url}`) and the operation pipeline forwards its operations
   * there. Read again every renewal period; a phone that moved to another node is registered again.
   */
  mirrorRemoteDevices(hub: DeviceHub, isLocal: (deviceId: string) => boolean, options: { listAll?: boolean } = {}): void {
    const sync = async () => {
      try {
        if (this.url) await this.leases.advertise(this.url);
        const held = await this.leases.heldElsewhere();
        const now = new Set<string>();
        const nodeOf = (device: ClusterDevice): ClusterNode | undefined =>
          options.listAll && device.node.url ? { id: device.node.id, url: device.node.url } : undefined;
        // Replaced at once, before any registration awaits.
        const holders = new Map<string, ClusterNode>();
        const reports = new Map<string, { state: DeviceState; at: number; node: string }>();
        for (const device of held) {
          const node = nodeOf(device);
          if (node) holders.set(device.deviceId, node);
          const state = stateOfReport(device.report?.state);
          if (node && device.report && state) reports.set(device.deviceId, { state, at: device.report.at, node: node.url });
        }
        this.holders = holders;
        this.reports = reports;
        for (const device of held) {
          const node = nodeOf(device);
          if (isLocal(device.deviceId) || this.closed) continue;
          now.add(device.deviceId);
          const key = JSON.stringify([device.node.id, node?.url ?? null]);
          if (this.remote.get(device.deviceId) === key) continue;
          if (this.remote.has(device.deviceId)) await hub.unregister(device.deviceId);
          const owner: LeaseOwner = device.owner;
          const driver = remoteDriver(device.deviceId, platformOf(device.platform), node);
          const { deviceId } = device;
          hub.register(
            node
              ? { id: deviceId, name: device.name, driver, node: () => node, nodeReport: () => this.reportOf(deviceId) }
              : { id: deviceId, name: device.name, driver, heldBy: () => owner },
          );
          this.remote.set(device.deviceId, key);
        }
        for (const id of [...this.remote.keys()]) {
          if (now.has(id)) continue;
          this.remote.delete(id);
          await hub.unregister(id);
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'reading the phones of the other nodes failed; retrying');
      }
    };
    const loop = () => {
      if (this.closed) return;
      this.syncing = sync().finally(() => {
        if (this.closed) return;
        this.timer = setTimeout(loop, this.lease.renewMs);
        this.timer.unref();
      });
    };
    loop();
  }

  /**
   * The node that holds the phone now, as last read, when it is another one serving a REST API and `listAll`
   * is on: a phone of this node's config that another node holds is then forwarded to it like the others.
   */
  nodeHolding(deviceId: string): ClusterNode | undefined {
    return this.holders.get(deviceId);
  }

  /** The address this node's REST API answers on, for the operations other nodes forward to it (said on the next read). */
  advertise(url: string): void {
    this.url = url;
    this.leases.advertise(url).catch((error: unknown) => this.logger.warn({ err: error }, 'registering the address of this node failed; retrying'));
  }

  /** The first read of the other nodes' phones is over. */
  whenMirrored(): Promise<void> {
    return this.syncing;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.syncing;
    await this.db.close();
  }
}

/** A holder's report as a list shows it: its state, and a note on its age once that is more than a lease period. */
export function reportAsListed(report: { state: DeviceState; at: number; node: string }, now: number, leaseMs: number): NodeReport {
  const age = now - report.at;
  if (age <= leaseMs) return { state: report.state };
  return { state: report.state, note: `as node ${report.node} reported it ${Math.round(age / 1000)} s ago; it may have changed since` };
}

const DEVICE_STATES: readonly string[] = ['online', 'offline', 'busy', 'preparing'] satisfies DeviceState[];

/** A state read from the database, when it is one this version knows. */
function stateOfReport(value: string | undefined): DeviceState | undefined {
  return value !== undefined && DEVICE_STATES.includes(value) ? (value as DeviceState) : undefined;
}

function platformOf(value: string): Platform {
  return value === 'android' ? 'android' : 'ios';
}

/**
 * A phone another node holds: every call on this driver is refused (without `node`, the hub refuses first,
 * through `heldBy`; with it, the pipeline forwards operations to that node, and what reaches the driver is
 * what is not forwarded, such as the live screen).
 */
function remoteDriver(deviceId: string, platform: Platform, node?: ClusterNode): DeviceDriver {
  return refusingDriver(platform, () =>
    node
      ? new ApexError('unsupported_operation', `Device ${deviceId} is held by node ${node.url}; this is not sent on to it.`, {
          hint: `Use that node's API for it (${node.url}).`,
        })
      : new ApexError('device_busy', `Device ${deviceId} is held by another Apex node.`, {
          hint: 'Start a task for it (start_task): the node that holds it runs it. Or use the REST API of that node.',
        }),
  );
}

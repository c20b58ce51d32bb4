import { ApexError } from '@apex/errors';
import type { DeviceHub, DeviceRegistration, Lease, LeaseOwner } from '@apex/hub';
import { PostgresDatabase, PostgresDeviceLeases, PostgresStepImages, PostgresTaskStore, TASKS_CHANNEL, type OpenedTaskStore, type ScreenshotRetention } from '@apex/tasks';
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
  private readonly remote = new Set<string>();
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
        const claim = await this.leases.claim(device);
        return claim.held ? { held: true } : { held: false, holder: { ...claim.holder, instanceId: '', deviceId: device.deviceId } };
      },
      release: () => this.leases.release(device.deviceId),
    };
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

  /**
   * Keeps the phones other nodes hold registered in `hub` (not those of `isLocal`), each `busy` with its
   * node: listed, and taking tasks, which that node runs. Read again every renewal period.
   */
  mirrorRemoteDevices(hub: DeviceHub, isLocal: (deviceId: string) => boolean): void {
    const sync = async () => {
      try {
        const held = await this.leases.heldElsewhere();
        const now = new Set<string>();
        for (const device of held) {
          if (isLocal(device.deviceId)) continue;
          now.add(device.deviceId);
          if (this.remote.has(device.deviceId) || this.closed) continue;
          const owner: LeaseOwner = device.owner;
          hub.register({ id: device.deviceId, name: device.name, driver: remoteDriver(device.deviceId, platformOf(device.platform)), heldBy: () => owner });
          this.remote.add(device.deviceId);
        }
        for (const id of [...this.remote]) {
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

function platformOf(value: string): Platform {
  return value === 'android' ? 'android' : 'ios';
}

/** A phone another node holds: every call is refused (the hub refuses first, through `heldBy`). */
function remoteDriver(deviceId: string, platform: Platform): DeviceDriver {
  return refusingDriver(
    platform,
    () =>
      new ApexError('device_busy', `Device ${deviceId} is held by another Apex node.`, {
        hint: 'Start a task for it (start_task): the node that holds it runs it. Or use the REST API of that node.',
      }),
  );
}

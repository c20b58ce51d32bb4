import { ownerOf, type Lease, type LeaseOwner } from '@apex/hub';
import type { PostgresDatabase } from './postgres-database';

/** A phone another node holds, as the cluster sees it. */
export interface ClusterDevice {
  deviceId: string;
  name: string;
  platform: string;
  owner: LeaseOwner;
  /** When that node's hold ends unless renewed (ms since the epoch). */
  expiresAt: number;
  /** The node: its instance id, and the address of its REST API when it serves one. */
  node: { id: string; url?: string };
  /** The phone's state as that node last reported it with a renewal (its own hub's), and when (ms since the epoch). */
  report?: { state: string; at: number };
}

/** The outcome of one claim: this node holds the phone, or another one does. */
export type DeviceClaim = { held: true } | { held: false; holder: LeaseOwner & { expiresAt: number } };

interface LeaseRow {
  device_id: string;
  name: string;
  platform: string;
  instance_id: string;
  pid: number;
  host: string;
  since: string;
  expires_at: string;
  url?: string | null;
  state?: string | null;
  state_at?: string | null;
}

/**
 * Which node holds which phone, in the shared database (`apex_device_leases`): the device leases of a
 * cluster, replacing the lock files of one machine. One atomic upsert takes a free phone, renews this node's
 * hold, or takes over a hold that ran out; a current hold of another node is left alone. Tasks are routed by
 * these rows: a task runs on the node that holds its device.
 */
export class PostgresDeviceLeases {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly lease: Lease,
  ) {}

  /**
   * Takes, renews or takes over the phone's lease; `state` is the phone's state as this node sees it now
   * (its hub's), reported with the hold for the nodes that list it (none: not known yet).
   */
  async claim(device: { deviceId: string; name: string; platform: string }, state?: string): Promise<DeviceClaim> {
    const { instance, leaseMs, now } = this.lease;
    const at = now();
    const taken = await this.db.query(
      `INSERT INTO apex_device_leases (device_id, name, platform, instance_id, pid, host, since, expires_at, state, state_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10, $11)
       ON CONFLICT (device_id) DO UPDATE SET name = EXCLUDED.name, platform = EXCLUDED.platform, instance_id = EXCLUDED.instance_id,
         pid = EXCLUDED.pid, host = EXCLUDED.host, since = EXCLUDED.since, expires_at = EXCLUDED.expires_at,
         state = EXCLUDED.state, state_at = EXCLUDED.state_at
       WHERE apex_device_leases.instance_id = EXCLUDED.instance_id OR apex_device_leases.expires_at <= $9`,
      [device.deviceId, device.name, device.platform, instance.id, instance.pid, instance.host, instance.since, at + leaseMs, at, state ?? null, state === undefined ? null : at],
    );
    if (taken.rowCount === 1) return { held: true };
    const { rows } = await this.db.query<LeaseRow>('SELECT * FROM apex_device_leases WHERE device_id = $1', [device.deviceId]);
    const row = rows[0];
    // Released between the two statements: the next claim takes it.
    if (!row) return { held: false, holder: { pid: 0, host: '', since: '', expiresAt: at } };
    return { held: false, holder: { ...ownerOf(row), expiresAt: Number(row.expires_at) } };
  }

  /** Gives the phone up at once (the row stays, marking the phone as one held through leases). */
  async release(deviceId: string): Promise<void> {
    await this.db.query('UPDATE apex_device_leases SET expires_at = 0 WHERE device_id = $1 AND instance_id = $2', [deviceId, this.lease.instance.id]);
  }

  /** The phones other live nodes hold now. */
  async heldElsewhere(): Promise<ClusterDevice[]> {
    const { rows } = await this.db.query<LeaseRow>(
      `SELECT d.*, n.url FROM apex_device_leases d LEFT JOIN apex_nodes n ON n.instance_id = d.instance_id
       WHERE d.instance_id <> $1 AND d.expires_at > $2 ORDER BY d.device_id`,
      [this.lease.instance.id, this.lease.now()],
    );
    return rows.map((row) => ({
      deviceId: row.device_id,
      name: row.name,
      platform: row.platform,
      owner: ownerOf(row),
      expiresAt: Number(row.expires_at),
      node: { id: row.instance_id, ...(row.url ? { url: row.url } : {}) },
      ...(row.state && row.state_at ? { report: { state: row.state, at: Number(row.state_at) } } : {}),
    }));
  }

  /**
   * Registers the address this node's REST API answers on, for the operations other nodes forward to it: on
   * the node's row, which the task store keeps while the node lives. Said again every period (a row written
   * anew after a long pause gets it back); never writes the row itself, so a node that is closing stays gone.
   */
  async advertise(url: string): Promise<void> {
    await this.db.query('UPDATE apex_nodes SET url = $2 WHERE instance_id = $1 AND url IS DISTINCT FROM $2', [this.lease.instance.id, url]);
  }
}

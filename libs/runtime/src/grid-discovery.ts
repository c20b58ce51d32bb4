import { createHash } from 'node:crypto';
import type { DeviceHub } from '@apex/hub';
import { createAppiumDriver, readGridStatus, type AppiumDriver, type GridSlot } from '@apex/driver-appium';
import type { GridConfig } from './config';
import { resolveEndpoint, type ResolvedEndpoint } from './credentials';
import type { Logger } from './logger';

const DEFAULT_REFRESH_MS = 10_000;
const DEFAULT_FORGET_AFTER_MISSES = 6;
const STATUS_TIMEOUT_MS = 5_000;
/** A failed command re-reads the hub, but not more often than this (a burst of failures costs one read). */
const REREAD_AFTER_FAILURE_MS = 1_000;

/** A phone of the lab as this process knows it. */
interface KnownPhone {
  readonly id: string;
  readonly driver: AppiumDriver;
  /** The slot at the last read; undefined while the hub does not list it (or cannot be read). */
  slot?: GridSlot;
  /** Reads in a row that did not list it. */
  misses: number;
}

export interface GridDiscoveryOptions {
  grid: GridConfig;
  hub: DeviceHub;
  logger: Logger;
  /** Where `usernameEnv` / `keyEnv` are read. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Hears a device added or removed (the runtime's device list). */
  onAdded?: (device: { id: string; name: string; url: string }) => void;
  onRemoved?: (deviceId: string) => void;
}

/** A device id from a slot: its `appium:udid` (made a valid id), else a stable hash of the stereotype. */
export function deviceIdOf(gridId: string, stereotype: Record<string, unknown>): string {
  const udid = stereotype['appium:udid'] ?? stereotype.udid;
  if (typeof udid === 'string' && udid) {
    const cleaned = udid.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
    if (cleaned) return cleaned;
  }
  const canonical = JSON.stringify(Object.keys(stereotype).sort().map((key) => [key, stereotype[key]]));
  return `${gridId}-${createHash('sha256').update(canonical).digest('hex').slice(0, 12)}`;
}

function matches(stereotype: Record<string, unknown>, match: Record<string, unknown> | undefined): boolean {
  return Object.entries(match ?? {}).every(([key, wanted]) => {
    const value = stereotype[key];
    if (typeof wanted === 'string' && typeof value === 'string') return wanted.toLowerCase() === value.toLowerCase();
    return JSON.stringify(wanted) === JSON.stringify(value);
  });
}

function nameOf(id: string, stereotype: Record<string, unknown>): string {
  const name = stereotype['appium:deviceName'] ?? stereotype.deviceName;
  return typeof name === 'string' && name ? name.slice(0, 100) : id;
}

/**
 * Keeps the hub's devices in step with one Selenium Grid 4 hub: each read of its `GET /status` registers a
 * device per matching slot, and lists a device `busy` while a session other than this process's holds its
 * slot and `offline` while its node is down or gone (removed after `forgetAfterMisses` reads without it).
 * Sessions go through the hub with the slot's stereotype, so the hub can only match that phone; the driver
 * closes a session the hub routed to another phone. The hub's allocation decides who has a phone. A command
 * that fails re-reads the hub at once, so a phone whose node went down is offline without waiting for the period.
 */
export class GridDiscovery {
  private readonly known = new Map<string, KnownPhone>();
  private timer?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private closed = false;
  /** The hub without credentials, and their header. */
  private readonly endpoint: ResolvedEndpoint;
  private lastReadAt = 0;

  constructor(private readonly options: GridDiscoveryOptions) {
    this.endpoint = resolveEndpoint(options.grid.url, options.grid, options.env ?? process.env);
  }

  /** The ids of the devices this grid registered. */
  deviceIds(): string[] {
    return [...this.known.keys()];
  }

  /** Reads the hub now (concurrent callers share one read); never throws: an unreadable hub marks its phones offline. */
  refresh(): Promise<void> {
    this.reading ??= this.readOnce().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /** Refreshes every `refreshMs` (default 10 s) until close(). */
  start(): void {
    if (this.closed || this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.options.grid.refreshMs ?? DEFAULT_REFRESH_MS);
    this.timer.unref();
  }

  /** Stops refreshing and removes this grid's devices from the hub (their drivers end their sessions). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.reading;
    await Promise.all([...this.known.keys()].map((id) => this.remove(id)));
  }

  /** A command on one of the phones failed: the hub may know why (its node went down, another client took it). */
  private refreshAfterFailure(): void {
    if (this.closed || Date.now() - this.lastReadAt < REREAD_AFTER_FAILURE_MS) return;
    void this.refresh();
  }

  private async readOnce(): Promise<void> {
    const { grid, logger } = this.options;
    this.lastReadAt = Date.now();
    let slots: GridSlot[];
    try {
      const { url, authorization } = this.endpoint;
      slots = await readGridStatus(url, AbortSignal.timeout(STATUS_TIMEOUT_MS), authorization ? { authorization } : {});
    } catch (error) {
      logger.warn({ grid: grid.id, err: error }, 'the device lab cannot be read; its phones are offline until it answers');
      for (const phone of this.known.values()) phone.slot = undefined;
      return;
    }
    if (this.closed) return;
    const seen = new Set<string>();
    for (const slot of slots) {
      if (!matches(slot.stereotype, grid.match)) continue;
      const id = deviceIdOf(grid.id, slot.stereotype);
      if (seen.has(id)) {
        logger.warn({ grid: grid.id, deviceId: id }, 'two slots of the device lab name the same phone; only the first is used');
        continue;
      }
      seen.add(id);
      const phone = this.known.get(id) ?? this.add(id, slot);
      if (!phone) continue;
      phone.slot = slot;
      phone.misses = 0;
    }
    const forgetAfter = grid.forgetAfterMisses ?? DEFAULT_FORGET_AFTER_MISSES;
    for (const phone of [...this.known.values()]) {
      if (seen.has(phone.id)) continue;
      phone.slot = undefined;
      phone.misses += 1;
      if (phone.misses >= forgetAfter) await this.remove(phone.id);
    }
  }

  private add(id: string, slot: GridSlot): KnownPhone | undefined {
    const { grid, hub, logger } = this.options;
    if (hub.has(id)) {
      logger.warn({ grid: grid.id, deviceId: id }, 'a phone of the device lab has the id of another device; it is left out');
      return undefined;
    }
    const udid = slot.stereotype['appium:udid'] ?? slot.stereotype.udid;
    const driver = createAppiumDriver({
      deviceId: id,
      serverUrl: this.endpoint.url,
      authorization: this.endpoint.authorization,
      capabilities: { ...slot.stereotype, ...grid.capabilities },
      connectTimeoutMs: grid.timeouts?.connectMs,
      sessionStartTimeoutMs: grid.timeouts?.sessionStartMs,
      expectedUdid: typeof udid === 'string' && udid ? udid : undefined,
    });
    const phone: KnownPhone = { id, driver, slot, misses: 0 };
    const name = nameOf(id, slot.stereotype);
    hub.register({
      id,
      name,
      driver,
      actionTimeoutMs: grid.timeouts?.actionMs,
      slowActionTimeoutMs: grid.timeouts?.slowActionMs,
      poolState: () => {
        const current = phone.slot;
        if (!current || !current.nodeUp) return 'offline';
        // A session this driver lost (its server restarted) still holds the slot until the driver ends it
        // through the hub, which its next call does first: the phone is not another client's.
        return current.sessionId !== undefined && !driver.ownsSession(current.sessionId) ? 'busy' : undefined;
      },
      onFailure: () => this.refreshAfterFailure(),
    });
    this.known.set(id, phone);
    logger.info({ grid: grid.id, deviceId: id }, 'device lab: phone added');
    this.options.onAdded?.({ id, name, url: this.endpoint.url });
    return phone;
  }

  private async remove(id: string): Promise<void> {
    if (!this.known.delete(id)) return;
    this.options.logger.info({ grid: this.options.grid.id, deviceId: id }, 'device lab: phone removed');
    this.options.onRemoved?.(id);
    await this.options.hub.unregister(id);
  }
}

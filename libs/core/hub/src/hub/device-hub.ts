import { ApexError, invalidArgument, toApexError } from '@apex/errors';
import type { ScreenGeometry, DeviceDriver, Platform } from '@apex/port';
import type { LeaseOwner } from '../lease';
import { assertNotHeldElsewhere, type HeldBy } from './device-access';
import { Backoff, type BackoffOptions } from './backoff';
import { SerialQueue } from './serial-queue';
import { deviceTimeout, withTimeout } from './with-timeout';

/**
 * `busy` while an action runs or while another Apex process holds the device; `offline` after a connection
 * failure, until a probe or a call succeeds.
 */
export type DeviceState = 'online' | 'offline' | 'busy';

export interface DeviceSummary {
  id: string;
  name: string;
  platform: Platform;
  state: DeviceState;
  /** The other Apex process that holds the device (then `state` is `busy`). */
  owner?: LeaseOwner;
}

export interface DeviceRegistration {
  id: string;
  name?: string;
  driver: DeviceDriver;
  /** Longest time one action may take before `device_timeout`. Default: the hub's (15 s). */
  actionTimeoutMs?: number;
  /** Limit for slow actions (screenshots, UI tree). Default: the hub's (30 s), never below actionTimeoutMs. */
  slowActionTimeoutMs?: number;
  /** Who holds the device when another process does: it is then listed `busy` and calls get `device_busy`. */
  heldBy?: HeldBy;
}

export interface RunOptions {
  /** Use the device's slow-action limit (screenshots, UI tree). */
  slow?: boolean;
  /** Overrides the limit for this one action. */
  timeoutMs?: number;
}

/** The optional abilities of the port, for `supports()`. */
export type OptionalAbility = 'listApps' | 'ping';

/** Structural subset of a pino logger, so the core needs no logging library. */
export interface HubLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface DeviceHubOptions {
  defaultActionTimeoutMs?: number;
  defaultSlowActionTimeoutMs?: number;
  /** Reconnect back-off for offline devices: 250 ms doubling up to 10 s by default. */
  backoff?: BackoffOptions;
  /** Limit of one health probe. Default 3 s. */
  probeTimeoutMs?: number;
  /** Probe offline devices in the background on the back-off schedule (default true). */
  backgroundProbes?: boolean;
  logger?: HubLogger;
  /** Clock, injectable for tests. */
  now?: () => number;
}

interface DeviceSlot {
  readonly id: string;
  readonly name: string;
  readonly driver: DeviceDriver;
  readonly actionTimeoutMs: number;
  readonly slowActionTimeoutMs: number;
  readonly heldBy?: HeldBy;
  readonly queue: SerialQueue;
  readonly backoff: Backoff;
  health: 'online' | 'offline';
  running: number;
  /** While offline: calls before this instant fail fast. */
  retryAt: number;
  lastFailure?: ApexError;
  screen?: ScreenGeometry;
  screenFetch?: Promise<ScreenGeometry>;
  probeTimer?: NodeJS.Timeout;
}

const DEFAULT_ACTION_TIMEOUT_MS = 15_000;
const DEFAULT_SLOW_ACTION_TIMEOUT_MS = 30_000;

/**
 * Owns the devices: registers and finds them, tracks their health, and runs every action of one device
 * through that device's FIFO queue (never interleaved on one device; different devices in parallel).
 *
 * When an action times out, the queue moves on; the late reply is discarded. A device goes offline when an
 * action fails with `device_offline`; while its back-off runs, calls fail fast with `device_offline`, and the
 * first call (or background probe) after the back-off tries the device again.
 */
export class DeviceHub {
  private readonly slots = new Map<string, DeviceSlot>();
  private readonly defaultActionTimeoutMs: number;
  private readonly defaultSlowActionTimeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly backgroundProbes: boolean;
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly options: DeviceHubOptions = {}) {
    this.defaultActionTimeoutMs = options.defaultActionTimeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS;
    this.defaultSlowActionTimeoutMs = options.defaultSlowActionTimeoutMs ?? DEFAULT_SLOW_ACTION_TIMEOUT_MS;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
    this.backgroundProbes = options.backgroundProbes ?? true;
    this.now = options.now ?? Date.now;
  }

  register(registration: DeviceRegistration): void {
    if (this.closed) throw new ApexError('internal', 'The device hub is closed.');
    if (this.slots.has(registration.id)) {
      throw invalidArgument(`A device with id "${registration.id}" is already registered.`, [
        { path: 'id', message: 'must be unique' },
      ]);
    }
    const actionTimeoutMs = registration.actionTimeoutMs ?? this.defaultActionTimeoutMs;
    this.slots.set(registration.id, {
      id: registration.id,
      name: registration.name ?? registration.id,
      driver: registration.driver,
      actionTimeoutMs,
      slowActionTimeoutMs: Math.max(
        registration.slowActionTimeoutMs ?? this.defaultSlowActionTimeoutMs,
        actionTimeoutMs,
      ),
      heldBy: registration.heldBy,
      queue: new SerialQueue(),
      backoff: new Backoff(this.options.backoff),
      health: 'online',
      running: 0,
      retryAt: 0,
    });
  }

  has(deviceId: string): boolean {
    return this.slots.has(deviceId);
  }

  ids(): string[] {
    return [...this.slots.keys()];
  }

  list(): DeviceSummary[] {
    return [...this.slots.values()].map((slot) => this.summarize(slot));
  }

  /** The summary of one device (`device_not_found` if unknown). */
  summary(deviceId: string): DeviceSummary {
    return this.summarize(this.slot(deviceId));
  }

  /**
   * Optional id → id: the only device when exactly one exists; `device_not_found` listing the ids when
   * unknown; `invalid_argument` listing the ids when omitted with several.
   */
  resolve(deviceId?: string): string {
    if (deviceId !== undefined) {
      this.slot(deviceId);
      return deviceId;
    }
    const ids = this.ids();
    if (ids.length === 1) return ids[0];
    if (ids.length === 0) {
      throw new ApexError('device_not_found', 'No devices are configured.', {
        hint: 'Add a device to the configuration, or start without one to use the virtual iPhone.',
      });
    }
    throw invalidArgument(
      `Several devices are available (${ids.join(', ')}); say which one with deviceId.`,
      [{ path: 'deviceId', message: `required when several devices are available: ${ids.join(', ')}` }],
      `Use one of: ${ids.join(', ')}.`,
    );
  }

  /** Whether the device's driver has an optional ability. */
  supports(deviceId: string, ability: OptionalAbility): boolean {
    return typeof this.slot(deviceId).driver[ability] === 'function';
  }

  /**
   * Runs `fn` on the device's FIFO queue, within the device's action timeout (`device_timeout`), and
   * tracks the device's health from the outcome. Anything thrown that is not an ApexError becomes `internal`.
   */
  run<T>(deviceId: string, action: string, fn: (driver: DeviceDriver) => Promise<T>, options: RunOptions = {}): Promise<T> {
    let slot: DeviceSlot;
    try {
      slot = this.slot(deviceId);
      this.assertOpen(slot);
      assertNotHeldElsewhere(slot.id, slot.heldBy);
      this.assertNotBackingOff(slot);
    } catch (error) {
      return Promise.reject(error);
    }
    const timeoutMs = options.timeoutMs ?? (options.slow ? slot.slowActionTimeoutMs : slot.actionTimeoutMs);
    return slot.queue.push(async () => {
      this.assertOpen(slot);
      this.assertNotBackingOff(slot);
      slot.running += 1;
      try {
        const value = await withTimeout(Promise.resolve().then(() => fn(slot.driver)), timeoutMs, () =>
          deviceTimeout(slot.id, action, timeoutMs),
        );
        this.markOnline(slot);
        return value;
      } catch (error) {
        const apex = toApexError(error);
        if (apex.code === 'device_offline') this.markOffline(slot, apex);
        throw apex;
      } finally {
        slot.running -= 1;
      }
    });
  }

  /**
   * Checks the device now (through its queue) and returns its state. A device that is backing off is
   * probed anyway: this is an explicit request.
   */
  async probe(deviceId: string): Promise<DeviceState> {
    const slot = this.slot(deviceId);
    this.assertOpen(slot);
    await slot.queue
      .push(() => this.probeNow(slot))
      .catch(() => undefined);
    return this.summarize(slot).state;
  }

  /** Cached screen geometry (points + scale), fetched with `status()` once and refreshed after a reconnect. */
  async screen(deviceId: string): Promise<ScreenGeometry> {
    const slot = this.slot(deviceId);
    if (slot.screen) return slot.screen;
    if (!slot.screenFetch) {
      slot.screenFetch = this.run(deviceId, 'read the screen size', (driver) => driver.status())
        .then((status) => {
          slot.screen = status.screen;
          return status.screen;
        })
        .finally(() => {
          slot.screenFetch = undefined;
        });
    }
    return slot.screenFetch;
  }

  /** Records a fresher screen geometry seen by a primitive (e.g. after a rotation). */
  noteScreen(deviceId: string, screen: ScreenGeometry): void {
    this.slot(deviceId).screen = { width: screen.width, height: screen.height, scale: screen.scale };
  }

  /** Forgets the cached geometry; the next `screen()` reads it from the device. */
  invalidateScreen(deviceId: string): void {
    this.slot(deviceId).screen = undefined;
  }

  /** Waits for queued actions to settle, stops probes and closes every driver. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const slots = [...this.slots.values()];
    for (const slot of slots) clearTimeout(slot.probeTimer);
    await Promise.all(slots.map((slot) => slot.queue.idle()));
    await Promise.all(
      slots.map(async (slot) => {
        try {
          await slot.driver.close?.();
        } catch (error) {
          this.options.logger?.warn({ deviceId: slot.id, err: error }, 'closing the device driver failed');
        }
      }),
    );
  }

  private slot(deviceId: string): DeviceSlot {
    const slot = this.slots.get(deviceId);
    if (!slot) {
      const ids = this.ids();
      throw new ApexError('device_not_found', `No device with id "${deviceId}".`, {
        hint: ids.length ? `Use one of: ${ids.join(', ')}.` : 'No devices are configured.',
      });
    }
    return slot;
  }

  private summarize(slot: DeviceSlot): DeviceSummary {
    const owner = slot.heldBy?.();
    if (owner) return { id: slot.id, name: slot.name, platform: slot.driver.platform, state: 'busy', owner };
    const state: DeviceState = slot.health === 'offline' ? 'offline' : slot.running > 0 ? 'busy' : 'online';
    return { id: slot.id, name: slot.name, platform: slot.driver.platform, state };
  }

  private assertOpen(slot: DeviceSlot): void {
    if (this.closed) {
      throw new ApexError('device_offline', `Device ${slot.id} is no longer available: Apex is shutting down.`);
    }
  }

  private assertNotBackingOff(slot: DeviceSlot): void {
    if (slot.health !== 'offline' || this.now() >= slot.retryAt) return;
    const seconds = Math.max(1, Math.ceil((slot.retryAt - this.now()) / 1000));
    throw new ApexError(
      'device_offline',
      `Device ${slot.id} is offline; Apex will try to reach it again in about ${seconds} s.`,
      {
        hint: 'Check that the phone is on, connected and its automation server is running, then retry.',
        cause: slot.lastFailure,
      },
    );
  }

  private async probeNow(slot: DeviceSlot): Promise<void> {
    const driver = slot.driver;
    try {
      const probe = driver.ping ? driver.ping() : driver.status().then(() => undefined);
      await withTimeout(probe, this.probeTimeoutMs, () => deviceTimeout(slot.id, 'health check', this.probeTimeoutMs));
      this.markOnline(slot);
    } catch (error) {
      const apex = toApexError(error);
      if (apex.code === 'device_offline' || apex.code === 'device_timeout') this.markOffline(slot, apex);
      throw apex;
    }
  }

  private markOnline(slot: DeviceSlot): void {
    if (slot.health === 'online') return;
    slot.health = 'online';
    slot.lastFailure = undefined;
    slot.backoff.reset();
    clearTimeout(slot.probeTimer);
    slot.probeTimer = undefined;
    // A reconnect may mean a rotated or different screen.
    slot.screen = undefined;
    this.options.logger?.info({ deviceId: slot.id }, 'device is back online');
  }

  private markOffline(slot: DeviceSlot, failure: ApexError): void {
    const wasOnline = slot.health === 'online';
    slot.health = 'offline';
    slot.lastFailure = failure;
    const delay = slot.backoff.next();
    slot.retryAt = this.now() + delay;
    if (wasOnline) this.options.logger?.warn({ deviceId: slot.id, err: failure.cause ?? failure }, 'device went offline');
    this.scheduleProbe(slot, delay);
  }

  private scheduleProbe(slot: DeviceSlot, delay: number): void {
    if (!this.backgroundProbes || this.closed) return;
    clearTimeout(slot.probeTimer);
    slot.probeTimer = setTimeout(() => {
      slot.probeTimer = undefined;
      if (this.closed || slot.health !== 'offline') return;
      slot.queue.push(() => this.probeNow(slot)).catch(() => undefined);
    }, delay);
    slot.probeTimer.unref();
  }
}

import { ApexError, invalidArgument, toApexError } from '@apex/errors';
import { TIMEOUT_DEFAULTS, type ScreenGeometry, type DeviceDriver, type Platform } from '@apex/port';
import type { LeaseOwner } from '../lease';
import { DeviceRefs } from '../refs/element-refs';
import { ActionMemory } from './action-memory';
import { ActionQueue } from './action-queue';
import { callerSignal, forAnyCaller } from './caller-scope';
import { assertNotHeldElsewhere, assertPoolAllows, type HeldBy, type PoolStateValue } from './device-access';
import { Backoff, type BackoffOptions } from './backoff';
import { callWithin, deviceTimeout, gaveUp, type Outcome } from './deadline';
import type { DevicePreparation, PreparationWait } from './preparation';

/**
 * `busy` while an action runs or while another Apex process holds the device; `offline` after a connection
 * failure, until a probe or a call succeeds.
 */
export type DeviceState = 'online' | 'offline' | 'busy' | 'preparing';

export interface DeviceSummary {
  id: string;
  name: string;
  platform: Platform;
  state: DeviceState;
  /** The other Apex process that holds the device (then `state` is `busy`). */
  owner?: LeaseOwner;
  /** Why it is not ready, in a person's words, where its pool knows (being prepared, waiting for authorization). */
  note?: string;
  /** The other Apex node that holds the device and answers for it (a cluster's `listAll`). */
  node?: ClusterNode;
}

/** An Apex node of a cluster, as a client sees it: its id and the address of its REST API. */
export interface ClusterNode {
  id: string;
  url: string;
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
  /**
   * What the device's pool says of it (a device lab: another client holds its slot, its node is down):
   * `busy` lists it busy and calls get `device_busy`; `offline` lists it offline and calls get `device_offline`.
   */
  poolState?: PoolState;
  /** Hears each action the device answered with a failure (not a timeout or a caller giving up): a pool may re-read its state. */
  onFailure?: (error: ApexError) => void;
  /** The pool's note on the device, listed with it (see DeviceSummary.note). */
  note?: () => string | undefined;
  /**
   * Another node holds the device and answers for it (now): the operation pipeline sends its operations there
   * (the driver is never called for them), and it is listed with that node, in the state of `nodeReport`.
   */
  node?: () => ClusterNode | undefined;
  /** The device is being made ready (its pool registers it again once it is): calls may wait for it (`whenReady`). */
  preparation?: DevicePreparation;
  /** What that node last reported of the device (its own state of it, a note on the report's age); none: `online`. */
  nodeReport?: () => NodeReport | undefined;
}

/** A device's state as the node that holds it reported it (see DeviceRegistration.nodeReport). */
export interface NodeReport {
  state: DeviceState;
  note?: string;
}

/** A pool's word on a device; undefined: nothing against using it. */
export type PoolState = () => PoolStateValue | undefined;

export interface RunOptions {
  /** Use the device's slow-action limit (screenshots, UI tree). */
  slow?: boolean;
  /** Overrides the limit for this one action. */
  timeoutMs?: number;
  /** Added to the device's limit for this one action (an action that waits on purpose, e.g. backgrounding for N s). */
  extraMs?: number;
  /**
   * The caller giving up (a client that disconnected or cancelled): while queued the action is withdrawn and
   * never runs; while running, its driver call is aborted. Either way the caller is rejected at once, with the
   * signal's reason when that is an ApexError.
   */
  signal?: AbortSignal;
}

/** What `run()` hands an action: the device's driver, and the signal to pass to every call on it. */
export type DeviceAction<T> = (driver: DeviceDriver, signal: AbortSignal) => Promise<T>;

/** The optional abilities of the port, for `supports()`. */
export type OptionalAbility = Exclude<
  { [K in keyof DeviceDriver]-?: undefined extends DeviceDriver[K] ? K : never }[keyof DeviceDriver],
  'close'
>;

/** Structural subset of a pino logger, so the core needs no logging library. */
export interface HubLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface DeviceHubOptions {
  /** Default of a device's `actionTimeoutMs` (TIMEOUT_DEFAULTS.actionMs). */
  defaultActionTimeoutMs?: number;
  /** Default of a device's `slowActionTimeoutMs` (TIMEOUT_DEFAULTS.slowActionMs). */
  defaultSlowActionTimeoutMs?: number;
  /** Reconnect back-off for offline devices: 250 ms doubling up to 10 s by default. */
  backoff?: BackoffOptions;
  /** Limit of one health probe (TIMEOUT_DEFAULTS.probeMs). */
  probeTimeoutMs?: number;
  /** Actions that may wait behind the running one, per device; more are refused with `device_busy`. Default 32. */
  maxWaitingActions?: number;
  /** Probe offline devices in the background on the back-off schedule (default true). */
  backgroundProbes?: boolean;
  logger?: HubLogger;
  /** Clock, injectable for tests. */
  now?: () => number;
  /** The device a call without `device` goes to when several are registered (config `defaultDevice`). */
  defaultDevice?: string;
}

interface DeviceSlot {
  readonly id: string;
  readonly name: string;
  readonly driver: DeviceDriver;
  readonly actionTimeoutMs: number;
  readonly slowActionTimeoutMs: number;
  readonly heldBy?: HeldBy;
  readonly poolState?: PoolState;
  readonly note?: () => string | undefined;
  readonly node?: () => ClusterNode | undefined;
  readonly preparation?: DevicePreparation;
  readonly nodeReport?: () => NodeReport | undefined;
  readonly onFailure?: (error: ApexError) => void;
  readonly queue: ActionQueue;
  readonly backoff: Backoff;
  /** The refs issued for this registration's elements: they go with it. */
  readonly refs: DeviceRefs;
  /** When Apex last acted on it and what it typed there (evidence: logs since an action, redaction). */
  readonly memory: ActionMemory;
  /** The builds installed through this hub (app id → name): a device may not name them (see installedApps). */
  readonly installed: Map<string, string>;
  health: 'online' | 'offline';
  running: number;
  /** While offline: calls before this instant fail fast. */
  retryAt: number;
  lastFailure?: ApexError;
  screen?: ScreenGeometry;
  screenFetch?: Promise<ScreenGeometry>;
  probeTimer?: NodeJS.Timeout;
}

const DEFAULT_MAX_WAITING_ACTIONS = 32;

/**
 * Owns the devices: registers and finds them, tracks their health, and runs every action of one device
 * through that device's bounded FIFO queue (never interleaved on one device; different devices in parallel).
 *
 * The hub owns the time limits. When an action's limit runs out, its caller gets `device_timeout` at once and
 * the driver call is aborted through its signal; the next action starts only once that call has settled, so
 * two actions never overlap on a device, even a slow one. A device goes offline when an action fails with
 * `device_offline`; while its back-off runs, calls fail fast with `device_offline`, and the first call (or
 * background probe) after the back-off tries the device again.
 */
export class DeviceHub {
  private readonly slots = new Map<string, DeviceSlot>();
  private readonly defaultActionTimeoutMs: number;
  private readonly defaultSlowActionTimeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly maxWaitingActions: number;
  private readonly backgroundProbes: boolean;
  private readonly now: () => number;
  private closed = false;
  /**
   * The highest ref number any unregistered device issued: a device registered again under the same id
   * numbers its refs after it, so a ref of its earlier registration never names one of its elements.
   */
  private retiredRefs = 0;
  /** Ends every read beside the queues when the hub closes. */
  private readonly closing = new AbortController();

  constructor(private readonly options: DeviceHubOptions = {}) {
    this.defaultActionTimeoutMs = options.defaultActionTimeoutMs ?? TIMEOUT_DEFAULTS.actionMs;
    this.defaultSlowActionTimeoutMs = options.defaultSlowActionTimeoutMs ?? TIMEOUT_DEFAULTS.slowActionMs;
    this.probeTimeoutMs = options.probeTimeoutMs ?? TIMEOUT_DEFAULTS.probeMs;
    this.maxWaitingActions = options.maxWaitingActions ?? DEFAULT_MAX_WAITING_ACTIONS;
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
      poolState: registration.poolState,
      note: registration.note,
      node: registration.node,
      preparation: registration.preparation,
      nodeReport: registration.nodeReport,
      onFailure: registration.onFailure,
      queue: new ActionQueue(),
      backoff: new Backoff(this.options.backoff),
      refs: new DeviceRefs(this.retiredRefs),
      memory: new ActionMemory(),
      installed: new Map(),
      health: 'online',
      running: 0,
      retryAt: 0,
    });
  }

  /**
   * Removes a device (its pool no longer offers it): waits for its queued actions, then closes its driver.
   * Unknown ids are ignored.
   */
  async unregister(deviceId: string): Promise<void> {
    const slot = this.slots.get(deviceId);
    if (!slot) return;
    this.slots.delete(deviceId);
    this.retiredRefs = Math.max(this.retiredRefs, slot.refs.issued);
    clearTimeout(slot.probeTimer);
    await slot.queue.idle();
    try {
      await slot.driver.close?.(AbortSignal.timeout(this.probeTimeoutMs));
    } catch (error) {
      this.options.logger?.warn({ deviceId: slot.id, err: error }, 'closing the device driver failed');
    }
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

  /** The node that answers for the device when another node holds it (`device_not_found` if unknown). */
  nodeOf(deviceId: string): ClusterNode | undefined {
    return this.slot(deviceId).node?.();
  }

  /** Actions waiting in the device's queue (the running one not included). */
  waiting(deviceId: string): number {
    return this.slot(deviceId).queue.waitingCount;
  }

  /** The device a call without `device` goes to when several are registered, if one is set. */
  get defaultDevice(): string | undefined {
    return this.options.defaultDevice;
  }

  /**
   * Optional id → id: the only device when exactly one exists, else the default device when one is set;
   * `device_not_found` listing the ids when unknown (or when the default is not registered now);
   * `invalid_argument` listing the ids when omitted with several and no default.
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
        hint: 'Add a device to the configuration, or start without one to use the virtual phones.',
      });
    }
    const fallback = this.options.defaultDevice;
    if (fallback !== undefined) {
      if (this.slots.has(fallback)) return fallback;
      throw new ApexError('device_not_found', `The default device "${fallback}" is not available now; available: ${ids.join(', ')}.`, {
        hint: `Say which device with device (one of: ${ids.join(', ')}).`,
      });
    }
    throw invalidArgument(
      `Several devices are available (${ids.join(', ')}); say which one with device.`,
      [{ path: 'device', message: `required when several devices are available: ${ids.join(', ')}` }],
      `Use one of: ${ids.join(', ')}, or set defaultDevice in the configuration.`,
    );
  }

  /**
   * Waits while the device is being prepared (see DevicePreparation.wait: phases to `onPhase`, bounded by
   * `timeoutMs` and the caller's signal); at once when it is not. A preparation that failed rejects with its
   * own error, which names the fix. `device_not_found` if unknown.
   */
  async whenReady(deviceId: string, options: PreparationWait): Promise<void> {
    const preparation = this.slot(deviceId).preparation;
    if (preparation) await preparation.wait(options);
  }

  /** The refs of the device's elements, for as long as it is registered (`device_not_found` if unknown). */
  refs(deviceId: string): DeviceRefs {
    return this.slot(deviceId).refs;
  }

  /** Notes that an action (a tap, typing, a launch…) starts on the device now. */
  noteAction(deviceId: string): void {
    this.slot(deviceId).memory.noteAction(this.now());
  }

  /** When the last action started on the device (ms since the epoch), undefined before the first. */
  lastActionAt(deviceId: string): number | undefined {
    return this.slot(deviceId).memory.lastActionAt();
  }

  /** Remembers a text typed (or pasted) on the device, so that what the device reports can be redacted. */
  rememberTypedText(deviceId: string, text: string): void {
    this.slot(deviceId).memory.rememberText(text);
  }

  /**
   * The apps installed through this hub on the device, named by their builds: a device that lists only running
   * apps (an iPhone), or lists them without labels (Android), cannot name them, yet launch by name should find them.
   * They go with the registration.
   */
  installedApps(deviceId: string): Map<string, string> {
    return this.slot(deviceId).installed;
  }

  /** The texts typed on the device that its reports must not show, longest first. */
  typedTexts(deviceId: string): readonly string[] {
    return this.slot(deviceId).memory.typedTexts();
  }

  /** Whether the device's driver has an optional ability. */
  supports(deviceId: string, ability: OptionalAbility): boolean {
    return typeof this.slot(deviceId).driver[ability] === 'function';
  }

  /**
   * Runs `fn` on the device's FIFO queue, within the device's action limit (`device_timeout`), and tracks
   * the device's health from the outcome. `fn` must pass its signal to every driver call: it aborts when the
   * limit runs out or the caller gives up (`options.signal`, else the signal of the caller this work serves:
   * `onBehalfOf`). With the queue full, `device_busy` at once.
   * Anything thrown that is not an ApexError becomes `internal`.
   */
  run<T>(deviceId: string, action: string, fn: DeviceAction<T>, options: RunOptions = {}): Promise<T> {
    let slot: DeviceSlot;
    try {
      slot = this.slot(deviceId);
      this.assertOpen(slot);
      assertNotHeldElsewhere(slot.id, slot.heldBy);
      assertPoolAllows(slot.id, slot.poolState, slot.note);
      this.assertNotBackingOff(slot);
      this.assertRoom(slot);
    } catch (error) {
      return Promise.reject(error);
    }
    const signal = options.signal ?? callerSignal();
    if (signal?.aborted) return Promise.reject(gaveUp(slot.id, action, signal, false));
    const timeoutMs = options.timeoutMs ?? (options.slow ? slot.slowActionTimeoutMs : slot.actionTimeoutMs) + (options.extraMs ?? 0);
    return new Promise<T>((resolve, reject) => {
      let withdraw = () => false;
      const onQueuedAbort = () => {
        if (signal && withdraw()) reject(gaveUp(slot.id, action, signal, false));
      };
      signal?.addEventListener('abort', onQueuedAbort, { once: true });
      withdraw = slot.queue.enqueue(async () => {
        signal?.removeEventListener('abort', onQueuedAbort);
        await this.runNow(slot, action, fn, timeoutMs, signal, (outcome) =>
          outcome.ok ? resolve(outcome.value) : reject(outcome.error),
        );
      });
    });
  }

  /**
   * Reads what `open` yields beside the device's queue: it starts at once and never waits for, nor holds up,
   * the device's actions (for parallel reads such as a live screen). The checks of run() come first (known,
   * not held elsewhere, not backing off). Each item must arrive within the device's slow-action limit, else
   * `device_timeout`; the caller's signal (or the hub closing) ends the reading quietly. Whenever it stops,
   * the driver's signal aborts. Failures are ApexErrors; `device_offline` marks the device offline.
   */
  async *readBeside<T>(
    deviceId: string,
    action: string,
    open: (driver: DeviceDriver, signal: AbortSignal) => AsyncIterable<T>,
    signal: AbortSignal,
  ): AsyncGenerator<T> {
    const slot = this.slot(deviceId);
    this.assertOpen(slot);
    assertNotHeldElsewhere(slot.id, slot.heldBy);
    assertPoolAllows(slot.id, slot.poolState, slot.note);
    this.assertNotBackingOff(slot);
    const stop = AbortSignal.any([signal, this.closing.signal]);
    const controller = new AbortController();
    const abortDriver = () => controller.abort(stop.reason);
    stop.addEventListener('abort', abortDriver, { once: true });
    let iterator: AsyncIterator<T> | undefined;
    try {
      iterator = open(slot.driver, controller.signal)[Symbol.asyncIterator]();
      for (let first = true; !stop.aborted; first = false) {
        const next = await nextWithin(iterator, slot.slowActionTimeoutMs, stop, () => deviceTimeout(slot.id, action, slot.slowActionTimeoutMs));
        if (!next || next.done) return;
        if (first) this.markOnline(slot);
        yield next.value;
      }
    } catch (error) {
      const apex = toApexError(error);
      if (apex.code === 'device_offline') this.markOffline(slot, apex);
      throw apex;
    } finally {
      stop.removeEventListener('abort', abortDriver);
      controller.abort(new ApexError('device_timeout', `Reading "${action}" on device ${slot.id} stopped.`));
      // The driver's iterator ends on its aborted signal; its return() is not waited for.
      iterator?.return?.().catch(() => undefined);
    }
  }

  /**
   * Checks the device now (through its queue) and returns its state. A device that is backing off is
   * probed anyway: this is an explicit request.
   */
  async probe(deviceId: string): Promise<DeviceState> {
    const slot = this.slot(deviceId);
    this.assertOpen(slot);
    await new Promise<void>((resolve) => slot.queue.enqueue(() => this.probeNow(slot, resolve)));
    return this.summarize(slot).state;
  }

  /** Cached screen geometry (points + scale), read with the driver's `screen()` and again after a reconnect. */
  async screen(deviceId: string): Promise<ScreenGeometry> {
    const slot = this.slot(deviceId);
    if (slot.screen) return slot.screen;
    if (!slot.screenFetch) {
      // Shared by every caller waiting for it: one of them giving up must not fail the others.
      slot.screenFetch = forAnyCaller(() => this.run(deviceId, 'read the screen size', (driver, signal) => driver.screen(signal)))
        .then((screen) => {
          slot.screen = { width: screen.width, height: screen.height, scale: screen.scale };
          return slot.screen;
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

  /** Waits for queued actions to settle, stops probes and closes every driver (each within the probe limit). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const slots = [...this.slots.values()];
    for (const slot of slots) clearTimeout(slot.probeTimer);
    await Promise.all(slots.map((slot) => slot.queue.idle()));
    await Promise.all(
      slots.map(async (slot) => {
        try {
          await slot.driver.close?.(AbortSignal.timeout(this.probeTimeoutMs));
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
    const node = slot.node?.();
    if (node) {
      const report = slot.nodeReport?.();
      return { id: slot.id, name: slot.name, platform: slot.driver.platform, state: report?.state ?? 'online', ...(report?.note ? { note: report.note } : {}), node };
    }
    const owner = slot.heldBy?.();
    if (owner) return { id: slot.id, name: slot.name, platform: slot.driver.platform, state: 'busy', owner };
    const pool = slot.poolState?.();
    const state: DeviceState = pool ?? (slot.health === 'offline' ? 'offline' : slot.running > 0 ? 'busy' : 'online');
    const note = slot.note?.();
    return { id: slot.id, name: slot.name, platform: slot.driver.platform, state, ...(note ? { note } : {}) };
  }

  private assertOpen(slot: DeviceSlot): void {
    if (this.closed) {
      throw new ApexError('device_offline', `Device ${slot.id} is no longer available: Apex is shutting down.`);
    }
  }

  private assertRoom(slot: DeviceSlot): void {
    if (slot.queue.waitingCount < this.maxWaitingActions) return;
    const waiting = slot.queue.waitingCount;
    throw new ApexError('device_busy', `Device ${slot.id} is saturated: ${waiting} actions are already waiting.`, {
      hint: 'The device is saturated: wait for the pending actions to finish, then retry with fewer at a time.',
      retryable: true,
    });
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

  /** `report` hears the outcome as it is known; the returned promise settles with the driver call. */
  private async runNow<T>(
    slot: DeviceSlot,
    action: string,
    fn: DeviceAction<T>,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
    report: (outcome: Outcome<T>) => void,
  ): Promise<void> {
    try {
      this.assertOpen(slot);
      this.assertNotBackingOff(slot);
    } catch (error) {
      report({ ok: false, error });
      return;
    }
    if (callerSignal?.aborted) {
      report({ ok: false, error: gaveUp(slot.id, action, callerSignal, false) });
      return;
    }
    slot.running += 1;
    let outcome: Outcome<T> | undefined;
    try {
      outcome = await callWithin(
        (signal) => fn(slot.driver, signal),
        {
          timeoutMs,
          onTimeout: () => deviceTimeout(slot.id, action, timeoutMs),
          callerSignal,
          onGiveUp: callerSignal && (() => gaveUp(slot.id, action, callerSignal, true)),
        },
        (reason) => report({ ok: false, error: reason }),
      );
    } finally {
      slot.running -= 1;
    }
    if (!outcome) return;
    if (outcome.ok) {
      this.markOnline(slot);
      report(outcome);
      return;
    }
    const apex = toApexError(outcome.error);
    if (apex.code === 'device_offline') this.markOffline(slot, apex);
    report({ ok: false, error: apex });
    slot.onFailure?.(apex);
  }

  private async probeNow(slot: DeviceSlot, onDone?: () => void): Promise<void> {
    const driver = slot.driver;
    const settle = (outcome: Outcome<void>) => {
      if (outcome.ok) {
        this.markOnline(slot);
      } else {
        const apex = toApexError(outcome.error);
        if (apex.code === 'device_offline' || apex.code === 'device_timeout') this.markOffline(slot, apex);
      }
      onDone?.();
    };
    const outcome = await callWithin(
      (signal) => (driver.ping ? driver.ping(signal) : driver.status(signal).then(() => undefined)),
      { timeoutMs: this.probeTimeoutMs, onTimeout: () => deviceTimeout(slot.id, 'health check', this.probeTimeoutMs) },
      (reason) => settle({ ok: false, error: reason }),
    );
    if (outcome) settle(outcome);
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
      slot.queue.enqueue(() => this.probeNow(slot));
    }, delay);
    slot.probeTimer.unref();
  }
}

/** The iterator's next item within `timeoutMs` (else `onTimeout()` is thrown), or undefined once `stop` aborts. */
function nextWithin<T>(
  iterator: AsyncIterator<T>,
  timeoutMs: number,
  stop: AbortSignal,
  onTimeout: () => ApexError,
): Promise<IteratorResult<T> | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(() => reject(onTimeout())), timeoutMs);
    const onStop = () => settle(() => resolve(undefined));
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
      finish();
    };
    stop.addEventListener('abort', onStop, { once: true });
    iterator.next().then(
      (result) => settle(() => resolve(result)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

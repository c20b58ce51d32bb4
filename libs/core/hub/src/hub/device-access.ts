import { ApexError } from '@apex/errors';
import type { LeaseOwner } from '../lease';

/** Who holds the device when another process does (undefined: this process may use it). */
export type HeldBy = () => LeaseOwner | undefined;

/** `device_busy` naming the process that holds the device. */
function heldElsewhere(deviceId: string, owner: LeaseOwner): ApexError {
  return new ApexError(
    'device_busy',
    `Device ${deviceId} is in use by another Apex process (pid ${owner.pid} on ${owner.host}, since ${owner.since}).`,
    {
      hint: 'This process takes the device over on its own when that one stops; retry later, or stop that process.',
    },
  );
}

export function assertNotHeldElsewhere(deviceId: string, heldBy: HeldBy | undefined): void {
  const owner = heldBy?.();
  if (owner) throw heldElsewhere(deviceId, owner);
}

/**
 * `device_busy` / `device_offline` when the device's pool says so: a device lab (its node down, another client on
 * the slot) or this machine's discovery (a phone being prepared or waiting for authorization, whose `note` says
 * which and what to do).
 */
export function assertPoolAllows(deviceId: string, poolState: (() => PoolStateValue | undefined) | undefined, note?: () => string | undefined): void {
  const state = poolState?.();
  if (state === undefined) return;
  const why = note?.();
  if (why && state !== 'busy') {
    throw new ApexError('device_offline', `Device ${deviceId} is not ready: ${why}.`, {
      hint: state === 'preparing' ? 'Wait: it joins on its own once ready (list_devices shows its progress).' : 'Do what the note says; it joins on its own once ready.',
      retryable: true,
    });
  }
  if (state === 'busy') {
    throw new ApexError('device_busy', `Device ${deviceId} is in use by another client of its device lab.`, {
      hint: 'Another client holds this phone in the lab; retry later, or pick another device.',
      retryable: true,
    });
  }
  throw new ApexError('device_offline', `Device ${deviceId} is offline: the device lab does not offer it now.`, {
    hint: 'Check that the phone and its node of the lab are running; it comes back on its own when they are.',
    retryable: true,
  });
}

/** What a pool can say of a device: held by another client, not offered, or being prepared for use. */
export type PoolStateValue = 'busy' | 'offline' | 'preparing';

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

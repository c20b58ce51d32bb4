import { z } from 'zod';
import type { DeviceHub } from '@apex/hub';
import { MAX_LOG_LOOKBACK_MS } from '../limits';

/** `since` of the evidence reads: milliseconds back from now, an ISO 8601 instant, or "lastAction". */
export const sinceField = z
  .union([
    z.number().int().min(0).max(MAX_LOG_LOOKBACK_MS),
    z.iso.datetime({ offset: true }),
    z.literal('lastAction'),
  ])
  .optional()
  .describe('ms back from now, an ISO 8601 time, or "lastAction" (since the last action Apex ran on the device)');

export type Since = z.output<typeof sinceField>;

/** The instant `since` names (ms since the epoch); undefined: from the start of what the device keeps. */
export function sinceInstant(hub: DeviceHub, deviceId: string, since: Since, now: number = Date.now()): number | undefined {
  if (since === undefined) return undefined;
  if (since === 'lastAction') return hub.lastActionAt(deviceId);
  if (typeof since === 'number') return now - since;
  return Date.parse(since);
}

import { z } from 'zod';
import type { DeviceHub } from '@apex/hub';
import { MAX_LOG_LOOKBACK_MS } from '../limits';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** `since` of the evidence reads: milliseconds back from now, an ISO 8601 instant, or "lastAction". */
export const sinceField = z
  .union([
    z.number().int().min(0).max(MAX_LOG_LOOKBACK_MS),
    // A refinement, not z.iso.datetime(): its pattern would cost every tool list some 500 characters.
    z
      .string()
      .max(40)
      .refine((text) => ISO_TIME.test(text) && Number.isFinite(Date.parse(text)), 'must be an ISO 8601 time such as 2026-12-06T10:15:00Z'),
    z.literal('lastAction'),
  ])
  .optional()
  .describe('ms back from now, an ISO 8601 time, or "lastAction" (since Apex last acted on the device)');

export type Since = z.output<typeof sinceField>;

/** The instant `since` names (ms since the epoch); undefined: from the start of what the device keeps. */
export function sinceInstant(hub: DeviceHub, deviceId: string, since: Since, now: number = Date.now()): number | undefined {
  if (since === undefined) return undefined;
  if (since === 'lastAction') return hub.lastActionAt(deviceId);
  if (typeof since === 'number') return now - since;
  return Date.parse(since);
}

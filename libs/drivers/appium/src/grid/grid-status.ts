import { ApexError } from '@apex/errors';
import { z } from 'zod';

/** One slot of a Selenium Grid 4 hub: a phone a node offers, and whether a session holds it. */
export interface GridSlot {
  nodeId: string;
  /** The node answers the hub's health checks (`availability` UP). */
  nodeUp: boolean;
  slotId: string;
  /** The capabilities the node offers this slot with (what a session request must match). */
  stereotype: Record<string, unknown>;
  /** The session that holds the slot, if any. */
  sessionId?: string;
}

const SlotSchema = z.object({
  id: z.object({ hostId: z.string(), id: z.string() }),
  stereotype: z.record(z.string(), z.unknown()),
  session: z.object({ sessionId: z.string() }).loose().nullish(),
});

const StatusSchema = z.object({
  value: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        availability: z.string(),
        slots: z.array(SlotSchema),
      }),
    ),
  }),
});

/** Parses the reply of a hub's `GET /status` into its slots (`device_error` when it is not one). */
export function parseGridStatus(json: unknown): GridSlot[] {
  const parsed = StatusSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApexError('device_error', 'The device lab answered its status with something else than a Selenium Grid 4 status.', {
      hint: 'Check that the grid url points at a Selenium Grid 4 hub.',
      cause: parsed.error,
    });
  }
  return parsed.data.value.nodes.flatMap((node) =>
    node.slots.map((slot) => ({
      nodeId: node.id,
      nodeUp: node.availability === 'UP',
      slotId: slot.id.id,
      stereotype: slot.stereotype,
      sessionId: slot.session?.sessionId,
    })),
  );
}

/** Reads a hub's slots (`GET /status`); an unreachable hub is `device_offline`. */
export async function readGridStatus(hubUrl: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<GridSlot[]> {
  let reply: Response;
  try {
    reply = await fetch(new URL('status', hubUrl.endsWith('/') ? hubUrl : `${hubUrl}/`), { signal, headers: { accept: 'application/json', ...headers } });
  } catch (error) {
    throw new ApexError('device_offline', 'The device lab (Selenium Grid hub) cannot be reached.', {
      hint: 'Check that the hub runs and its address in the configuration.',
      retryable: true,
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = await reply.json();
  } catch (error) {
    throw new ApexError('device_error', `The device lab answered its status with HTTP ${reply.status} and no JSON.`, {
      hint: 'Check that the grid url points at a Selenium Grid 4 hub.',
      cause: error,
    });
  }
  return parseGridStatus(json);
}

import { z } from 'zod';
import type { Faults } from './fault-controller';

/**
 * The fault admin path, outside WDA's namespace, mounted only when the phone was started with faults on
 * (`--faults`, `startVirtualIPhone({ faults: true })`): `GET /__apex/faults` (state), `POST /__apex/faults`
 * (`{latencyMs?, failNext?, dropNext?, malformNext?, restart?: true, offlineForMs?}`) and
 * `POST /__apex/faults/reset`. Admin requests are never themselves subject to faults.
 */
export const ADMIN_PREFIX = '/__apex/';

const faultUpdate = z
  .object({
    latencyMs: z.number().min(0).max(600_000).optional(),
    failNext: z.number().int().min(0).max(1_000_000).optional(),
    dropNext: z.number().int().min(0).max(1_000_000).optional(),
    malformNext: z.number().int().min(0).max(1_000_000).optional(),
    restart: z.literal(true).optional(),
    offlineForMs: z.number().int().min(1).max(600_000).optional(),
  })
  .strict();

export interface AdminResponse {
  status: number;
  body: unknown;
  /** Work to do after the response has been sent (going offline must not cut the admin's own answer). */
  after?: () => Promise<void>;
}

function stateOf(faults: Faults) {
  return { faults: { ...faults.state, delayedRequests: faults.delayedRequests } };
}

/** A request body as the server read it: its JSON (undefined for none), or why it is not JSON. */
export type AdminBody = { json: unknown } | Error;

export function handleAdmin(faults: Faults, method: string, path: string, body: AdminBody, onError: (error: unknown) => void): AdminResponse {
  const route = path.replace(/\/+$/, '').toLowerCase();
  if (route === '/__apex/faults' && method === 'GET') return { status: 200, body: stateOf(faults) };
  if (route === '/__apex/faults/reset' && method === 'POST') {
    faults.reset();
    return { status: 200, body: stateOf(faults) };
  }
  if (route === '/__apex/faults' && method === 'POST') {
    if (body instanceof Error) return { status: 400, body: { error: 'invalid_argument', message: body.message } };
    const parsed = faultUpdate.safeParse(body.json ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      return { status: 400, body: { error: 'invalid_argument', message: 'Invalid fault settings.', issues } };
    }
    const update = parsed.data;
    if (update.latencyMs !== undefined) faults.setLatency(update.latencyMs);
    if (update.failNext !== undefined) faults.failNext(update.failNext);
    if (update.dropNext !== undefined) faults.dropNext(update.dropNext);
    if (update.malformNext !== undefined) faults.malformNext(update.malformNext);
    if (update.restart) faults.restart();
    const offlineForMs = update.offlineForMs;
    const state = stateOf(faults);
    if (offlineForMs !== undefined) {
      (state.faults as { offline: boolean }).offline = true;
      return { status: 200, body: state, after: () => faults.offlineFor(offlineForMs, onError) };
    }
    return { status: 200, body: state };
  }
  return {
    status: 404,
    body: { error: 'not_found', message: `No admin endpoint ${method} ${path}. Use GET/POST /__apex/faults or POST /__apex/faults/reset.` },
  };
}

/**
 * Run by lock-race.spec.ts as a separate process (node --import tsx): for each JSON line on stdin
 * (`{ round, file, at }`) it waits until the instant `at`, claims the device lock once as a fresh instance, and
 * answers `{ round, held, instanceId }` on stdout.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { claimDeviceLock } from '@apex/runtime';

createInterface({ input: process.stdin }).on('line', (line) => {
  const { round, file, at } = JSON.parse(line) as { round: number; file: string; at: number };
  const instanceId = randomUUID();
  setTimeout(async () => {
    const now = Date.now();
    const record = { instanceId, pid: process.pid, host: hostname(), since: new Date(now).toISOString(), deviceId: 'raced', expiresAt: now + 15_000 };
    try {
      const claim = await claimDeviceLock(file, record, now);
      process.stdout.write(`${JSON.stringify({ round, held: claim.held, instanceId })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ round, error: String(error) })}\n`);
    }
  }, Math.max(0, at - Date.now()));
});

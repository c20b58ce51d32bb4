import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeviceHub } from '@apex/hub';
import { createWdaDriver, type WdaDriver } from '@apex/driver-wda';
import type { OperationContext } from '@apex/capability';
import { Perception } from '@apex/perception';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { startCountingProxy } from './counting-proxy';

export const APEX_BIN = path.resolve(__dirname, '../../../../apps/cli/bin/apex.js');

/** Virtual iPhones over loopback, each with its own WDA driver, in one hub with perception: what the runtime builds. */
export interface BenchStack {
  phones: VirtualIPhone[];
  drivers: WdaDriver[];
  ids: string[];
  hub: DeviceHub;
  perception: Perception;
  ctx: OperationContext;
  /** A temp dir removed on close. */
  dir: string;
  /** A config file naming every phone (`shared`, so no lock), for a spawned `apex`. */
  configPath: string;
  /** With `countRequests`: the HTTP requests that reached each phone so far (through a counting pass-through). */
  requests?: () => number[];
  /** With `countRequests`: the last requests that reached each phone ("GET /path"). */
  recentRequests?: () => string[][];
  close(): Promise<void>;
}

export async function startStack(count = 1, options: { countRequests?: boolean } = {}): Promise<BenchStack> {
  const phones = await Promise.all(Array.from({ length: count }, () => startVirtualIPhone({ port: 0 })));
  const proxies = options.countRequests ? await Promise.all(phones.map((p) => startCountingProxy(p.url))) : [];
  const ids = phones.map((_, i) => `bench-${i + 1}`);
  const drivers = phones.map((p, i) => createWdaDriver({ deviceId: ids[i] as string, url: proxies[i]?.url ?? p.url }));
  const hub = new DeviceHub({ backgroundProbes: false });
  drivers.forEach((driver, i) => hub.register({ id: ids[i] as string, driver }));
  const perception = new Perception(hub);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-'));
  const configPath = path.join(dir, 'apex.json');
  writeFileSync(configPath, JSON.stringify({ devices: phones.map((p, i) => ({ id: ids[i], driver: 'wda', url: p.url, shared: true })) }));
  return {
    phones,
    drivers,
    ids,
    hub,
    perception,
    ctx: { hub, perception },
    dir,
    configPath,
    ...(options.countRequests ? { requests: () => proxies.map((p) => p.count()), recentRequests: () => proxies.map((p) => p.recent()) } : {}),
    async close() {
      await perception.close();
      await hub.close();
      await Promise.all(proxies.map((p) => p.close()));
      await Promise.all(phones.map((p) => p.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { RecordingProxy } from '../driver-wda/support/recording-proxy';


export interface ApexOverPhones {
  iphones: VirtualIPhone[];
  /** One recording proxy in front of each phone when asked for: Apex talks to the phone through it. */
  proxies: RecordingProxy[];
  ids: string[];
  runtime: Runtime;
  api: RestApiHandle;
  close(): Promise<void>;
}

export interface ApexOverPhonesOptions {
  count: number;
  /** Put a recording proxy in front of each phone (to see what reached it, in order). */
  record?: boolean;
  /** The `timeouts` of a device entry, by its index. */
  timeouts?: Record<number, { actionMs?: number; slowActionMs?: number; connectMs?: number }>;
}

/**
 * Apex as `apex serve --config` runs it: virtual iPhones started here, a config file naming them (`shared`,
 * so no lock outlives the test), the runtime on a temp data dir, and the REST API (with MCP at /mcp) on
 * 127.0.0.1:0.
 */
export async function startApexOverPhones(options: ApexOverPhonesOptions): Promise<ApexOverPhones> {
  const dir = mkdtempSync(join(tmpdir(), 'apex-reliability-'));
  const iphones = await Promise.all(Array.from({ length: options.count }, () => startVirtualIPhone({ port: 0 })));
  const proxies = options.record ? await Promise.all(iphones.map((p) => new RecordingProxy(p.url).start())) : [];
  const ids = iphones.map((_, i) => `phone-${i + 1}`);
  const configPath = join(dir, 'apex.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      devices: iphones.map((p, i) => ({
        id: ids[i],
        driver: 'wda',
        url: proxies[i]?.url ?? p.url,
        shared: true,
        ...(options.timeouts?.[i] ? { timeouts: options.timeouts[i] } : {}),
      })),
    }),
  );
  const runtime = await createRuntime({ configPath, dataDir: join(dir, 'data'), env: {}, logger: createLogger({ level: 'silent' }) });
  const api = await startRestApi(runtime, { port: 0, logger: createRestLogger({ level: 'silent' }) });
  return {
    iphones,
    proxies,
    ids,
    runtime,
    api,
    async close() {
      await api.close();
      await runtime.close();
      await Promise.all(proxies.map((p) => p.close()));
      await Promise.all(iphones.map((p) => p.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A keep-alive JSON client with up to `sockets` connections (so that many requests really are in flight). */
export function jsonClient(base: string, sockets = 8) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const url = new URL(base);
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const headers: http.OutgoingHttpHeaders = payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {};
      const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = (res.headers['content-type'] ?? '').includes('json');
          resolve({ status: res.statusCode ?? 0, body: json && text ? (JSON.parse(text) as Record<string, unknown>) : { text } });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown = {}) => send('POST', path, body),
    close: () => agent.destroy(),
  };
}

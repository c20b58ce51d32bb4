import { request as httpRequest } from 'node:http';
import { DeviceHub } from '@apex/hub';
import { defineOperation } from '@apex/capability';
import { Perception } from '@apex/perception';
import { z } from 'zod';
import { createRestLogger } from './logging';
import { startRestApi, type RestApiHandle } from './start';

/** GET /devices whose answer waits for the test: a request in flight for as long as needed. */
function gatedListDevices() {
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => (started = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const operation = defineOperation({
    name: 'list_devices',
    title: 'List devices',
    description: 'Gated for the test.',
    input: z.strictObject({}),
    output: z.object({ devices: z.array(z.unknown()) }),
    toolset: 'devices',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async () => {
      started();
      await gate;
      return { devices: [] };
    },
    summarize: () => 'none',
  });
  return { operation, inFlight, release };
}

function get(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end();
  });
}

describe('startRestApi close({ drainMs })', () => {
  const hub = new DeviceHub({ backgroundProbes: false });
  const perception = new Perception(hub);
  let api: RestApiHandle | undefined;

  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  afterAll(async () => {
    await perception.close();
    await hub.close();
  });

  async function start(operation: ReturnType<typeof gatedListDevices>['operation']): Promise<RestApiHandle> {
    api = await startRestApi({ hub, perception }, { port: 0, mcp: false, operations: [operation], logger: createRestLogger({ level: 'silent' }) });
    return api;
  }

  it('stops accepting at once and lets the request in flight finish', async () => {
    const gated = gatedListDevices();
    const { url } = await start(gated.operation);
    const answer = get(`${url}/devices`);
    await gated.inFlight;
    const closing = api?.close({ drainMs: 60_000 });
    expect(await get(`${url}/healthz`)).toBe('ECONNREFUSED');
    gated.release();
    expect(await answer).toBe(200);
    await closing;
  });

  it('cuts a request that outlasts the drain', async () => {
    const gated = gatedListDevices();
    const { url } = await start(gated.operation);
    const answer = get(`${url}/devices`);
    await gated.inFlight;
    await api?.close({ drainMs: 20 });
    expect(await answer).toMatch(/ECONNRESET|reset/);
    gated.release();
  });

  it('closes at once without a drain, as before', async () => {
    const gated = gatedListDevices();
    const { url } = await start(gated.operation);
    const answer = get(`${url}/devices`);
    await gated.inFlight;
    await api?.close();
    expect(await answer).toMatch(/ECONNRESET|reset/);
    gated.release();
  });
});

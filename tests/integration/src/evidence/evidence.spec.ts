import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { leakedWordsIn } from '@apex/errors/testing';
import { createRestLogger, startRestApi, type RestApiHandle } from '@apex/rest';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { CAMERA_BUNDLE_ID, CAMERA_PACKAGE, createVirtualAndroid, startAdbd, startVirtualIPhone, type Adbd, type VirtualIPhone, type VirtualPhone } from '@apex/virtual-device';
import { describeWithRealAdb, startRealAdbServer, type RealAdbServer } from '@apex/virtual-device/testing';
import { call } from '../rest/harness';

/**
 * get_logs, list_crashes and get_crash on both virtual phones, through both faces: MCP with the SDK's real
 * client (Streamable HTTP at /mcp) and REST over real HTTP, on the stack `apex serve` builds (the embedded
 * virtual iPhone; the virtual Android through the real adb and driver-adb). Every answer is scanned for driver
 * words; device data (a log line that names a tool) is the device's and is left out of the scan.
 */

interface Stack {
  runtime: Runtime;
  api: RestApiHandle;
  mcp: Client;
  device: string;
  seen: string[];
  tool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  rest(path: string, query?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function startStack(device: string, configPath?: string): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apex-evidence-'));
  const runtime = await createRuntime({ dataDir, configPath, env: {}, logger: createLogger({ level: 'silent' }) });
  const api = await startRestApi(runtime, { port: 0, logger: createRestLogger({ level: 'silent' }) });
  const mcp = new Client({ name: 'evidence', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(api.mcpUrl as string)));
  const seen: string[] = [];
  return {
    runtime,
    api,
    mcp,
    device,
    seen,
    async tool(name, args = {}) {
      const answer = (await mcp.callTool({ name, arguments: { device, ...args } })) as CallToolResult;
      seen.push(JSON.stringify({ ...answer, structuredContent: undefined, content: answer.isError ? answer.content : undefined }));
      return answer;
    },
    async rest(path, query = {}) {
      const qs = new URLSearchParams(query).toString();
      const answer = await call(api.url, 'GET', `/devices/${device}${path}${qs ? `?${qs}` : ''}`);
      if (answer.status >= 400) seen.push(JSON.stringify(answer.body));
      return { status: answer.status, body: answer.body };
    },
    async close() {
      for (const text of seen) expect(leakedWordsIn(text)).toEqual([]);
      await mcp.close();
      await api.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ok = (answer: CallToolResult): Record<string, unknown> => {
  expect({ isError: answer.isError ?? false, error: answer._meta?.['apex/error'] }).toEqual({ isError: false, error: undefined });
  return answer.structuredContent as Record<string, unknown>;
};
const codeOf = (answer: CallToolResult): string | undefined => (answer._meta?.['apex/error'] as { code?: string } | undefined)?.code;

type Entry = { time: string; level: string; process: string; app?: string; message: string };

/** The same story on each phone: launch Camera, type a secret, crash it with its button, read the evidence. */
interface PhoneUnderTest {
  stack: Stack;
  cameraId: string;
  button: string;
  /** Has the phone write a line of its own to its log (as an app that logs what it was given would). */
  deviceLogs(message: string): void;
}

function evidenceCases(name: string, setup: () => Promise<PhoneUnderTest>): void {
  describe(name, () => {
    let stack: Stack;
    let cameraId: string;
    let button: string;
    let deviceLogs: (message: string) => void;

    beforeAll(async () => {
      ({ stack, cameraId, button, deviceLogs } = await setup());
    }, 90_000);
    afterAll(() => stack?.close(), 60_000);

    it('get_logs since the last action: the launch is there, newest last, the same over MCP and REST', async () => {
      ok(await stack.tool('launch_app', { appId: cameraId, observe: 'none' }));
      const logs = ok(await stack.tool('get_logs', { since: 'lastAction' }));
      const entries = logs.entries as Entry[];
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.some((e) => e.message.includes(cameraId))).toBe(true);
      expect(Date.parse(entries[0]?.time as string)).toBeGreaterThanOrEqual(Date.parse(logs.since as string));
      for (let i = 1; i < entries.length; i++) expect(Date.parse((entries[i] as Entry).time)).toBeGreaterThanOrEqual(Date.parse((entries[i - 1] as Entry).time));
      const rest = await stack.rest('/logs', { since: logs.since as string, grep: cameraId });
      expect(rest.status).toBe(200);
      expect((rest.body.entries as Entry[]).length).toBeGreaterThan(0);
      expect((rest.body.entries as Entry[]).every((e) => `${e.process} ${e.message}`.toLowerCase().includes(cameraId.toLowerCase()))).toBe(true);
    });

    it('limit and level bound the answer and say how many were left out', async () => {
      const all = ok(await stack.tool('get_logs', {}));
      const total = (all.entries as Entry[]).length + (all.omitted as number);
      const two = ok(await stack.tool('get_logs', { limit: 2 }));
      expect((two.entries as Entry[]).length).toBe(2);
      expect((two.omitted as number) + 2).toBeGreaterThanOrEqual(Math.min(total, 2));
      const rest = await stack.rest('/logs', { limit: '2', since: '600000' });
      expect(rest.status).toBe(200);
      expect((rest.body.entries as Entry[]).length).toBeLessThanOrEqual(2);
    });

    it('the button crashes the app: a crash report listed and read through both faces, the app no longer in front', async () => {
      const tree = ok(await stack.tool('find_text', { text: button }));
      const match = (tree.matches as { center: { x: number; y: number } }[])[0];
      expect(match).toBeDefined();
      ok(await stack.tool('tap', { x: match?.center.x, y: match?.center.y, observe: 'none' }));
      const status = ok(await stack.tool('device_status', {}));
      expect((status.foregroundApp as { appId: string }).appId).not.toBe(cameraId);

      const listed = ok(await stack.tool('list_crashes', { app: cameraId, since: 'lastAction' }));
      const crashes = listed.crashes as { id: string; app: string; exception: string }[];
      expect(crashes).toHaveLength(1);
      expect(crashes[0]?.app).toBe(cameraId);
      const crash = ok(await stack.tool('get_crash', { id: crashes[0]?.id }));
      expect((crash.frames as string[]).length).toBeGreaterThan(2);
      expect(crash.reason).toEqual(expect.stringMatching(/camera|capture/i));

      const restList = await stack.rest('/crashes', { app: cameraId });
      expect(restList.status).toBe(200);
      expect((restList.body.crashes as { id: string }[]).map((c) => c.id)).toContain(crashes[0]?.id);
      const restOne = await stack.rest('/crash', { id: crashes[0]?.id as string });
      expect(restOne.status).toBe(200);
      expect(restOne.body).toMatchObject({ id: crashes[0]?.id, exception: crash.exception, frames: crash.frames });

      const faults = ok(await stack.tool('get_logs', { since: 'lastAction', level: 'error' }));
      expect((faults.entries as Entry[]).some((e) => e.app === cameraId || e.process === cameraId)).toBe(true);
    });

    it('text typed through Apex is redacted from the log on both faces (a grep for it finds nothing)', async () => {
      const secret = 'S3cret-pass-42';
      // Typing may fail (no field has focus): the text may have reached the device anyway, so it is redacted.
      await stack.tool('input_text', { text: secret, observe: 'none' });
      deviceLogs(`login attempt with password=${secret}`);
      const logs = ok(await stack.tool('get_logs', { grep: 'login attempt' }));
      expect((logs.entries as Entry[]).map((e) => e.message)).toEqual([expect.stringContaining('login attempt with password=[redacted]')]);
      expect(JSON.stringify(logs)).not.toContain(secret);
      expect(ok(await stack.tool('get_logs', { grep: 'S3cret' })).entries).toEqual([]);
      const rest = await stack.rest('/logs', { grep: 'login attempt' });
      expect(JSON.stringify(rest.body)).toContain('[redacted]');
      expect(JSON.stringify(rest.body)).not.toContain(secret);
    });

    it('a client asking in a loop: every answer bounded and alike, nothing left queued on the device', async () => {
      const sizes = new Set<number>();
      for (let i = 0; i < 40; i++) {
        const logs = ok(await stack.tool('get_logs', { limit: 5, level: 'fault' }));
        expect((logs.entries as Entry[]).length).toBeLessThanOrEqual(5);
        sizes.add((logs.entries as Entry[]).length);
      }
      expect(sizes.size).toBe(1);
      expect(stack.runtime.hub.waiting(stack.device)).toBe(0);
      ok(await stack.tool('device_status', {}));
    });

    it('bad input: invalid_argument on both faces, naming the field', async () => {
      for (const args of [{ limit: 0 }, { limit: 501 }, { level: 'warning' }, { since: 'yesterday' }, { grep: '' }]) {
        expect(codeOf(await stack.tool('get_logs', args))).toBe('invalid_argument');
      }
      expect(codeOf(await stack.tool('get_crash', { id: 'no-such-report' }))).toBe('invalid_argument');
      expect(codeOf(await stack.tool('list_crashes', { since: -1 }))).toBe('invalid_argument');
      for (const [path, query, field] of [
        ['/logs', { limit: 'many' }, 'limit'],
        ['/logs', { since: 'soon' }, 'since'],
        ['/logs', { bogus: '1' }, 'bogus'],
        ['/crash', {}, 'id'],
      ] as const) {
        const answer = await stack.rest(path, query);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe('invalid_argument');
        expect(JSON.stringify(answer.body)).toContain(field);
      }
    });
  });
}

evidenceCases('evidence on the embedded virtual iPhone (driver-wda, the phone’s host diagnostics)', async () => {
  const stack = await startStack('iphone-virtual');
  const phone = stack.runtime.embedded?.phone as VirtualPhone;
  return {
    stack,
    cameraId: CAMERA_BUNDLE_ID,
    button: 'Open Camera',
    deviceLogs: (message) => phone.osLog.add({ pid: 77, process: 'accountsd', subsystem: 'com.apple.accounts', category: 'auth', type: 'Default', message }),
  };
});

describeWithRealAdb('evidence on the virtual Android (the real adb, driver-adb)', () => {
  let adb: RealAdbServer;
  let adbd: Adbd;
  let dir: string;
  evidenceCases('through MCP and REST', async () => {
    const android = createVirtualAndroid();
    adbd = await startAdbd({ backend: android.backend, host: '127.0.0.1' });
    adb = await startRealAdbServer();
    dir = mkdtempSync(join(tmpdir(), 'apex-evidence-adb-'));
    const config = join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: 'pixel', driver: 'adb', host: adbd.serial, adbServer: `127.0.0.1:${adb.port}`, shared: true }] }));
    return {
      stack: await startStack('pixel', config),
      cameraId: CAMERA_PACKAGE,
      button: 'Open camera',
      deviceLogs: (message) => android.phone.logcat.add(2100, 'I', 'AccountManager', message),
    };
  });
  afterAll(async () => {
    await adb?.stop();
    await adbd?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});

describe('an iPhone whose host has no diagnostics source (a real one without its Mac’s or USB tools)', () => {
  let stack: Stack;
  let phone: VirtualIPhone;
  let dir: string;
  beforeAll(async () => {
    phone = await startVirtualIPhone({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'apex-evidence-wda-'));
    const config = join(dir, 'apex.json');
    writeFileSync(config, JSON.stringify({ devices: [{ id: 'real-iphone', driver: 'wda', url: phone.url, shared: true }] }));
    stack = await startStack('real-iphone', config);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
    await phone?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('get_logs, list_crashes and get_crash answer unsupported_operation with the reason, on both faces', async () => {
    for (const [name, args] of [['get_logs', {}], ['list_crashes', {}], ['get_crash', { id: 'x.ips' }]] as const) {
      const answer = await stack.tool(name, args);
      expect(codeOf(answer)).toBe('unsupported_operation');
      expect((answer._meta?.['apex/error'] as { hint?: string }).hint).toMatch(/host's tools/);
    }
    const rest = await stack.rest('/logs');
    expect(rest.status).toBe(501);
    expect(rest.body).toMatchObject({ code: 'unsupported_operation' });
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { leakedWordsIn } from '@apex/errors/testing';
import { installStandIns, type BuildHold, type StandIns } from '@apex/ios-host/testing';
import { createRestLogger, startRestApi } from '@apex/rest';
import { createLogger, createRuntime } from '@apex/runtime';
import { eventually } from '@apex/testing';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { freePort } from '@apex/virtual-device/testing';
import { call } from '../rest/harness';
import { APEX_BIN, errorCodeOf, startStdioSession, textOf, type StdioSession } from '../mcp/stdio-client';

const XCODE = { version: '15.4', build: '15F31d' };
const SIM = 'SIM-UDID-1';
const SIMULATORS = { 'com.apple.CoreSimulator.SimRuntime.iOS-17-5': [{ udid: SIM, name: 'iPhone 15', state: 'Booted', isAvailable: true }] };
const BUILDING = 'building the automation agent (the first time takes minutes)';
/** Words of the Mac's tool chain that must not reach a client either (besides @apex/errors' list). */
const TOOL_WORDS = /xcodebuild|go-ios|iproxy|idevice|WebDriverAgent/i;

/** The messages in order, a phase repeated while it lasts (the progress heartbeat) counted once. */
const phasesOf = (messages: string[]) => messages.filter((m, i) => m !== messages[i - 1]);

/**
 * A call on a phone that is still being prepared waits for it: over MCP (a real `apex mcp` over stdio, the SDK's
 * client with `onprogress`) it hears each phase as a progress notification, then gets its answer from the phone;
 * a failed preparation fails the call with its own error and fix. REST (real HTTP) answers 503 with the phase
 * and Retry-After at once, and wait_for_device waits on purpose. The Mac's tools are the stand-ins, whose build
 * the test holds and releases (events, not time); the phone behind the stand-in's agent is a virtual iPhone.
 */
describe('waiting for a phone being prepared', () => {
  let dir: string;
  let iphone: VirtualIPhone;
  let tools: StandIns;
  let session: StdioSession | undefined;
  let configPath: string;

  beforeAll(async () => {
    iphone = await startVirtualIPhone({ port: 0 });
  });
  afterAll(async () => {
    await iphone?.close();
  });
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'apex-preparing-'));
    const project = path.join(dir, 'WebDriverAgent.xcodeproj');
    mkdirSync(project);
    tools = installStandIns({ xcode: XCODE, simulators: SIMULATORS, agentUrl: iphone.url });
    configPath = path.join(dir, 'apex.json');
    // Nothing answers at the adb server's address: only the simulator is found.
    writeFileSync(configPath, JSON.stringify({ discover: true, ios: { agentProject: project }, android: { adbServer: `127.0.0.1:${await freePort()}` } }));
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    tools.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The stand-ins' environment, discovery on (the test setup turns it off for every other test). */
  const stringEnv = () => ({ ...Object.fromEntries(Object.entries(tools.env).filter((e): e is [string, string] => e[1] !== undefined)), APEX_DISCOVER: '' });

  /** `apex mcp` with the stand-ins on its PATH, once the simulator's build has started and is held. */
  async function mcpWithHeldBuild(): Promise<{ session: StdioSession; hold: BuildHold }> {
    const hold = await tools.holdBuilds();
    session = await startStdioSession(['--config', configPath, '--toolsets', 'all'], APEX_BIN, stringEnv());
    await hold.started();
    return { session, hold };
  }

  /** A tool call with a progressToken (the SDK sets one when `onprogress` is given); `firstProgress` resolves on the first notification. */
  function callWithProgress(s: StdioSession, name: string, args: Record<string, unknown>) {
    const messages: string[] = [];
    let heard: () => void = () => undefined;
    const firstProgress = new Promise<void>((resolve) => (heard = resolve));
    const result = s.client.callTool({ name, arguments: args }, undefined, {
      timeout: 60_000,
      onprogress: (progress) => {
        messages.push(progress.message ?? '');
        heard();
      },
    }) as Promise<CallToolResult>;
    return { messages, firstProgress, result };
  }

  it('MCP: the call waits with a progress notification per phase, then answers from the phone; the CLI logs a line per phase', async () => {
    const { session: s, hold } = await mcpWithHeldBuild();
    // listed preparing, with the phase
    const listed = (await s.call('list_devices')).structuredContent as { devices: Array<{ id: string; state: string; note?: string }> };
    expect(listed.devices.find((d) => d.id === SIM)).toMatchObject({ state: 'preparing', note: `preparing: ${BUILDING}` });
    // A wait that ends first says it is still preparing, and in which phase.
    const early = await s.call('wait_for_device', { device: SIM, timeoutMs: 0 });
    expect(early.isError).toBe(true);
    expect(errorCodeOf(early)).toBe('device_offline');
    expect(textOf(early)).toContain(`still being prepared (now: ${BUILDING})`);

    const tree = callWithProgress(s, 'get_ui_tree', { device: SIM });
    await tree.firstProgress;
    hold.release();
    const result = await tree.result;
    expect({ isError: result.isError ?? false, error: result._meta?.['apex/error'] }).toEqual({ isError: false, error: undefined });
    // The tree is the virtual iPhone's, read through the agent the stand-in started.
    expect(JSON.stringify(result.structuredContent)).toContain('Settings');
    expect(phasesOf(tree.messages)).toEqual([BUILDING, 'starting the automation agent', 'waiting for it to answer']);
    for (const message of tree.messages) {
      expect(leakedWordsIn(message)).toEqual([]);
      expect(message).not.toMatch(TOOL_WORDS);
    }
    // The phone is ready now: a call with a progressToken hears nothing and answers at once.
    const again = callWithProgress(s, 'device_status', { device: SIM });
    expect(((await again.result).structuredContent as { state: string }).state).toBe('online');
    expect(again.messages).toEqual([]);

    // One log line per phase on stderr (stdout is the protocol's: the client saw no stray line).
    const logged = s
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg?: string }).msg ?? '')
      .filter((msg) => msg.startsWith('preparing iPhone 15: '));
    expect(logged).toEqual(['checking the tools', BUILDING, 'starting the automation agent', 'waiting for it to answer'].map((p) => `preparing iPhone 15: ${p}`));
    expect(s.transportErrors).toEqual([]);
  }, 90_000);

  it('MCP: when the preparation fails, the waiting call fails with its semantic error and fix', async () => {
    tools.setScenario({ xcode: { ...XCODE, buildErrors: ['/tmp/Agent/Lib/Routing/Server.m:12:9: error: use of undeclared identifier'] }, simulators: SIMULATORS, agentUrl: iphone.url });
    const { session: s, hold } = await mcpWithHeldBuild();
    const tree = callWithProgress(s, 'get_ui_tree', { device: SIM });
    await tree.firstProgress;
    hold.release();
    const result = await tree.result;
    expect(result.isError).toBe(true);
    expect(result._meta?.['apex/error']).toMatchObject({ code: 'device_error', hint: expect.stringContaining('apex doctor') });
    expect(textOf(result)).toContain('Building the automation agent for iPhone 15 failed.');
    expect(phasesOf(tree.messages)).toEqual([BUILDING]);
    // Later calls answer the same error (not a generic "offline"), and the listing says what to fix.
    expect(errorCodeOf(await s.call('get_ui_tree', { device: SIM }))).toBe('device_error');
    const listed = (await s.call('list_devices')).structuredContent as { devices: Array<{ id: string; state: string; note?: string }> };
    expect(listed.devices.find((d) => d.id === SIM)).toMatchObject({ state: 'offline', note: expect.stringContaining('apex doctor') });
    for (const text of s.seen) expect(text).not.toMatch(TOOL_WORDS);
  }, 90_000);

  it('REST: a call answers 503 with the phase and Retry-After at once; wait_for_device waits until the phone is ready', async () => {
    const hold = await tools.holdBuilds();
    const dataDir = path.join(dir, 'data');
    const runtime = await createRuntime({ configPath, dataDir, env: { ...tools.env, APEX_DISCOVER: '' }, logger: createLogger({ level: 'silent' }) });
    // The REST log's debug line for an operation is written just before the pipeline starts waiting (synchronously).
    const logged: string[] = [];
    const api = await startRestApi(runtime, { port: 0, logger: createRestLogger({ level: 'debug', destination: { write: (line: string) => void logged.push(line) } }) });
    try {
      await hold.started();
      const refused = await call(api.url, 'GET', `/devices/${SIM}/ui-tree`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body).toMatchObject({ code: 'device_offline', retryable: true, detail: expect.stringContaining(`still being prepared (now: ${BUILDING})`) });

      const waiting = call(api.url, 'POST', `/devices/${SIM}/wait-ready`, { body: { timeoutMs: 60_000 } });
      await eventually(() => logged.some((line) => line.includes('"operation":"wait_for_device"')), { timeoutMs: 30_000, what: 'the wait under way' });
      expect(runtime.hub.summary(SIM).state).toBe('preparing');
      hold.release();
      const ready = await waiting;
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ id: SIM, state: 'online', platform: 'ios' });
      const tree = await call(api.url, 'GET', `/devices/${SIM}/ui-tree`);
      expect(tree.status).toBe(200);
      expect(JSON.stringify(tree.body)).toContain('Settings');
      for (const answer of [refused, ready, tree]) expect(leakedWordsIn(JSON.stringify(answer.body))).toEqual([]);
    } finally {
      await api.close();
      await runtime.close();
    }
  }, 90_000);
});

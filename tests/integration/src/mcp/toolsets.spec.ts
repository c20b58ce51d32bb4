import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TOOLSETS, operationsIn } from '@apex/capability';
import { leakedWordsIn } from '@apex/errors/testing';
import { eventually, spawnNode } from '@apex/testing';
import { ALL_OPERATIONS } from '@apex/tasks';
import { APEX_BIN, errorCodeOf, startStdioSession, type StdioSession } from './stdio-client';

const SPAWN_TIMEOUT = 120_000;
const DEFAULT_TOOLS_LIST_BUDGET = 15_000;
const OWN_TOOLS = ['list_toolsets', 'enable_toolset'];

/** Toolsets through the real `apex mcp` over stdio, driven by the SDK's real client. */
describe('apex mcp toolsets', () => {
  const sessions: StdioSession[] = [];

  async function start(args: string[] = [], env: Record<string, string> = {}): Promise<StdioSession> {
    const session = await startStdioSession(args, APEX_BIN, env);
    sessions.push(session);
    return session;
  }

  afterAll(async () => {
    for (const session of sessions) {
      for (const text of session.seen) expect(leakedWordsIn(text)).toEqual([]);
      expect(session.transportErrors).toEqual([]);
      await session.close();
    }
  }, SPAWN_TIMEOUT);

  it(
    'serves the default toolsets within 15,000 characters, and enable_toolset widens them with tools/list_changed',
    async () => {
      const session = await start();
      const listed = await session.client.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual([...operationsIn(ALL_OPERATIONS, DEFAULT_TOOLSETS).map((op) => op.name), ...OWN_TOOLS]);
      expect(JSON.stringify(listed).length).toBeLessThanOrEqual(DEFAULT_TOOLS_LIST_BUDGET);

      const refused = await session.call('get_ui_tree', {});
      expect(refused.isError).toBe(true);
      expect(errorCodeOf(refused)).toBe('invalid_argument');
      expect(refused._meta?.['apex/error']).toMatchObject({ hint: 'Call enable_toolset {"toolset":"inspect"}, then call get_ui_tree again.' });

      let changed = 0;
      session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed += 1;
      });
      const enabled = await session.call('enable_toolset', { toolset: 'inspect' });
      expect(enabled.structuredContent).toEqual({ toolset: 'inspect', tools: ['find_icon', 'get_ui_tree'], alreadyEnabled: false });
      await eventually(() => changed === 1, { timeoutMs: 10_000, what: 'notifications/tools/list_changed' });
      expect((await session.client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_ui_tree', 'find_icon']));
      const tree = await session.call('get_ui_tree', { interactiveOnly: true });
      expect(tree.isError).toBeFalsy();
      expect(tree.structuredContent).toMatchObject({ format: 'tree', truncated: expect.any(Boolean) });
    },
    SPAWN_TIMEOUT,
  );

  it(
    'takes --toolsets over APEX_TOOLSETS, and APEX_TOOLSETS alone',
    async () => {
      const [fromFlag, fromEnv] = await Promise.all([
        start(['--toolsets', 'gestures'], { APEX_TOOLSETS: 'tasks' }),
        start([], { APEX_TOOLSETS: 'devices, flows' }),
      ]);
      expect((await fromFlag.client.listTools()).tools.map((t) => t.name)).toEqual(['double_tap', 'long_press', 'pinch', ...OWN_TOOLS]);
      expect((await fromEnv.client.listTools()).tools.map((t) => t.name)).toEqual(['list_devices', 'device_status', 'wait_for_device', 'run_flow', 'export_flow', ...OWN_TOOLS]);
    },
    SPAWN_TIMEOUT,
  );

  it.each([
    ['--toolsets', ['mcp', '--toolsets', 'observe,clicks'], {}, /^apex: --toolsets: unknown toolset "clicks"; valid: devices, observe, act, .*, default, all\./],
    ['APEX_TOOLSETS', ['mcp'], { APEX_TOOLSETS: 'obsrve' }, /^apex: APEX_TOOLSETS: unknown toolset "obsrve"; valid: devices, /],
    ['apex serve --toolsets', ['serve', '--port', '0', '--toolsets', ''], {}, /^apex: --toolsets names no toolset; valid: devices, /],
  ])(
    'refuses to start on a bad toolset list in %s (exit 2, the valid names on stderr)',
    async (_where, args, env, message) => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'apex-toolsets-'));
      const child = spawnNode([APEX_BIN, ...args], { env: { ...process.env, APEX_DATA_DIR: dataDir, ...env } });
      try {
        expect(await child.waitForExit({ timeoutMs: 60_000 })).toEqual({ code: 2, signal: null });
        expect(child.stderr()).toMatch(message);
        expect(child.stdoutLines).toEqual([]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    SPAWN_TIMEOUT,
  );
});

/**
 * Per operation: the same call made seven ways against the same virtual iPhone in one run, each as a ratio
 * to the floor (the raw WDA HTTP call(s) the operation needs), arms interleaved in round-robin blocks.
 *
 *   raw        bare keep-alive HTTP to the phone's WDA face (the floor)
 *   driver     the WDA driver's own calls (`driver.tap`, `driver.screenshot`, `driver.uiTree`, …)
 *   hub        the hub primitive / perception call through the hub (device queue, timeouts)
 *   operation  `runOperation(ctx, name, args)`: validation + hub + driver (+ perception) + output check
 *   mcp-mem    the SDK client → `createMcpServer(ctx)` over the in-memory transport
 *   mcp-stdio  the SDK client → a spawned `apex mcp --config` over stdio (its own hub and driver)
 *   rest       HTTP to `createRestServer(ctx)` on 127.0.0.1
 *
 * All arms but mcp-stdio share one driver (one WDA session); the spawned server has its own, so the phone's
 * session changes hands at block boundaries: each block starts with an unmeasured call.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { captureScreen, doubleTap, getUiTree, longPress, openUrl, tap } from '@apex/hub';
import { runOperation } from '@apex/capability';
import type { DeviceDriver } from '@apex/port';
import { createRestLogger, createRestServer } from '@apex/rest';
import { SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { interleave, type Arm } from './support/interleave';
import { inMemoryMcp, stdioMcp, type McpCaller } from './support/mcp-clients';
import { rawWda } from './support/raw-wda';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round, summarize } from './support/stats';

/** The status bar of Settings: inside the screen, and tapping it changes nothing. */
const POINT = { x: 5, y: 30 };
/** The shortest long press the operation allows: the phone holds the finger this long on every arm. */
const LONG_PRESS = { ...POINT, durationMs: 100 };
/**
 * The action alone, as before issue 16: the default observe "summary" adds a tree read after each action
 * (the refs section measures what it costs).
 */
const UNOBSERVED = { observe: 'none' } as const;
/** Opens the browser on a bundled page; run last, as it leaves Settings. */
const URL_TO_OPEN = 'https://apex.example/';
/** The cases whose added latency has a target: the cheap gestures and controls, < 1 ms over the raw call. */
const ADDED_LATENCY_CASES = new Set(['tap', 'long_press', 'double_tap', 'open_url']);
const ARMS = ['raw', 'driver', 'hub', 'operation', 'mcp-mem', 'mcp-stdio', 'rest'] as const;
type ArmName = (typeof ARMS)[number];

interface OperationCase {
  name: string;
  /** Which raw call(s) make the floor. */
  floor: string;
  tool: string;
  args: Record<string, unknown>;
  rest: { method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> };
  /** Slow cases (real OCR each call) run fewer samples. */
  slow?: boolean;
  /**
   * Changes the screen before every call (so no cache answers): `true` scrolls a little further each time
   * (new pixels for OCR), 'back and forth' scrolls up and down again (two trees in turn, the list stays put).
   */
  changeScreen?: true | 'back and forth';
}

const CASES: OperationCase[] = [
  { name: 'tap', floor: 'POST /session/:id/wda/tap', tool: 'tap', args: { ...POINT, ...UNOBSERVED }, rest: { method: 'POST', path: '/tap', body: { ...POINT, ...UNOBSERVED } } },
  {
    name: 'long_press',
    floor: 'POST /session/:id/wda/touchAndHold (0.1 s)',
    tool: 'long_press',
    args: { ...LONG_PRESS, ...UNOBSERVED },
    rest: { method: 'POST', path: '/long-press', body: { ...LONG_PRESS, ...UNOBSERVED } },
  },
  {
    name: 'double_tap',
    floor: 'POST /session/:id/wda/doubleTap',
    tool: 'double_tap',
    args: { ...POINT, ...UNOBSERVED },
    rest: { method: 'POST', path: '/double-tap', body: { ...POINT, ...UNOBSERVED } },
  },
  {
    name: 'screenshot',
    floor: 'GET /screenshot (PNG, native pixels)',
    tool: 'take_screenshot',
    args: {},
    rest: { method: 'POST', path: '/screenshot', body: {} },
  },
  { name: 'UI tree', floor: 'GET /source?format=xml', tool: 'get_ui_tree', args: {}, rest: { method: 'GET', path: '/ui-tree' } },
  {
    name: 'find_text (tree)',
    floor: 'GET /source?format=xml',
    tool: 'find_text',
    args: { text: 'General' },
    rest: { method: 'POST', path: '/find-text', body: { text: 'General' } },
  },
  {
    name: 'find_text (OCR, new pixels each call)',
    floor: 'GET /screenshot',
    tool: 'find_text',
    args: { text: 'Notifications', source: 'ocr' },
    rest: { method: 'POST', path: '/find-text', body: { text: 'Notifications', source: 'ocr' } },
    slow: true,
    changeScreen: true,
  },
  {
    name: 'describe_screen (unchanged screen)',
    floor: 'GET /source?format=xml + GET /screenshot',
    tool: 'describe_screen',
    args: {},
    rest: { method: 'GET', path: '/describe' },
  },
  {
    name: 'UI tree (new screen each call)',
    floor: 'GET /source?format=xml',
    tool: 'get_ui_tree',
    args: {},
    rest: { method: 'GET', path: '/ui-tree' },
    changeScreen: 'back and forth',
  },
  {
    name: 'open_url',
    floor: 'POST /session/:id/url',
    tool: 'open_url',
    args: { url: URL_TO_OPEN, ...UNOBSERVED },
    rest: { method: 'POST', path: '/open-url', body: { url: URL_TO_OPEN, ...UNOBSERVED } },
  },
];

/** The driver's optional method, or a clear failure when this driver has not got it. */
function needed<F>(method: F | undefined, name: string): F {
  if (!method) throw new Error(`the WDA driver has no ${name}()`);
  return method;
}

export interface OperationsSectionOptions {
  /** Operation names to measure (default all): e.g. ['tap'] for a fast smoke run. */
  operations?: readonly string[];
}

export function createOperationsSection(options: OperationsSectionOptions = {}): Section {
  const cases = options.operations ? CASES.filter((c) => options.operations?.includes(c.name)) : CASES;
  return {
    name: 'operations',
    description: 'per-operation latency: raw WDA HTTP, driver, hub, operation, MCP in-memory, MCP stdio, REST',
    async run({ quick, log }): Promise<SectionResult> {
      // The spawned stdio server drives a twin phone under the same id: a virtual iPhone keeps one session at a
      // time (as WebDriverAgent does), so two processes on one phone would replace each other's session.
      const stack = await startStack(2);
      const [phone, twin] = stack.phones;
      const [driver] = stack.drivers;
      const [id] = stack.ids;
      if (!phone || !twin || !driver || !id) throw new Error('no phone');
      const twinConfigPath = path.join(stack.dir, 'stdio-apex.json');
      writeFileSync(twinConfigPath, JSON.stringify({ devices: [{ id, driver: 'wda', url: twin.url, shared: true }] }));
      const raw = rawWda(phone.url);
      const rest = createRestServer(stack.ctx, { logger: createRestLogger({ level: 'silent' }) });
      const { url: restUrl } = await rest.listen(0, '127.0.0.1');
      const restClient = rawWda(restUrl);
      let memory: McpCaller | undefined;
      let stdio: McpCaller | undefined;
      const result: SectionResult = {
        title: 'Per operation, one virtual iPhone (Settings), median latency and ratio to the raw floor',
        columns: ['operation', 'floor', ...ARMS.flatMap((a) => [`${a} p50 ms`, ...(a === 'raw' ? [] : [`${a} ×`])]), 'n'],
        rows: [],
        targets: [],
        notes: [],
      };
      try {
        phone.phone.launchApp(SETTINGS_BUNDLE_ID);
        twin.phone.launchApp(SETTINGS_BUNDLE_ID);
        await tap(stack.hub, id, POINT); // creates the session the raw arm borrows
        memory = await inMemoryMcp(stack.ctx);
        stdio = await stdioMcp(twinConfigPath, `${stack.dir}/stdio-data`);
        const session = () => {
          if (!driver.sessionId) throw new Error('the driver has no session');
          return driver.sessionId;
        };
        const versionBefore = phone.phone.version;
        let flip = false;
        let up = false;
        const scrollBackAndForth = () => {
          up = !up;
          for (const p of [phone, twin]) p.phone.drag(200, 500, 200, up ? 480 : 520, 0.05);
        };
        const scroll = () => {
          // 20 pt up, 18 pt down, …: every call sees pixels the OCR cache has not seen.
          flip = !flip;
          for (const p of [phone, twin]) p.phone.drag(200, 500, 200, flip ? 480 : 518, 0.05);
        };

        for (const c of cases) {
          const restPath = `/devices/${encodeURIComponent(id)}${c.rest.path}`;
          const floor: Record<string, () => Promise<unknown>> = {
            tap: () => raw.post(`/session/${session()}/wda/tap`, POINT),
            long_press: () => raw.post(`/session/${session()}/wda/touchAndHold`, { x: POINT.x, y: POINT.y, duration: LONG_PRESS.durationMs / 1000 }),
            double_tap: () => raw.post(`/session/${session()}/wda/doubleTap`, POINT),
            open_url: () => raw.post(`/session/${session()}/url`, { url: URL_TO_OPEN }),
            screenshot: () => raw.get('/screenshot'),
            'UI tree': () => raw.get('/source?format=xml'),
            'UI tree (new screen each call)': () => raw.get('/source?format=xml'),
            'find_text (tree)': () => raw.get('/source?format=xml'),
            'find_text (OCR, new pixels each call)': () => raw.get('/screenshot'),
            'describe_screen (unchanged screen)': async () => {
              await raw.get('/source?format=xml');
              await raw.get('/screenshot');
            },
          };
          const live = new AbortController().signal;
          /** The driver as the port sees it: its optional methods are the controls'. */
          const port: DeviceDriver = driver;
          const viaDriver: Record<string, () => Promise<unknown>> = {
            tap: () => driver.tap(POINT, live),
            long_press: () => needed(port.longPress, 'longPress').call(port, { point: POINT, durationMs: LONG_PRESS.durationMs }, live),
            double_tap: () => needed(port.doubleTap, 'doubleTap').call(port, POINT, live),
            open_url: () => needed(port.openUrl, 'openUrl').call(port, URL_TO_OPEN, live),
            screenshot: () => driver.screenshot(live),
            'UI tree': () => driver.uiTree(live),
            'UI tree (new screen each call)': () => driver.uiTree(live),
            'find_text (tree)': () => driver.uiTree(live),
            'find_text (OCR, new pixels each call)': () => driver.screenshot(live),
            'describe_screen (unchanged screen)': () => Promise.all([driver.uiTree(live), driver.screenshot(live)]),
          };
          const viaHub: Record<string, () => Promise<unknown>> = {
            tap: () => tap(stack.hub, id, POINT),
            long_press: () => longPress(stack.hub, id, POINT, LONG_PRESS.durationMs),
            double_tap: () => doubleTap(stack.hub, id, POINT),
            open_url: () => openUrl(stack.hub, id, URL_TO_OPEN),
            screenshot: () => captureScreen(stack.hub, id),
            'UI tree': () => getUiTree(stack.hub, id),
            'UI tree (new screen each call)': () => getUiTree(stack.hub, id),
            'find_text (tree)': () => stack.perception.findText(id, { text: 'General' }),
            'find_text (OCR, new pixels each call)': () => stack.perception.findText(id, { text: 'Notifications', source: 'ocr' }),
            'describe_screen (unchanged screen)': () => stack.perception.describeScreen(id, {}),
          };
          const arms: Arm[] = [
            { name: 'raw', run: floor[c.name] as () => Promise<unknown> },
            { name: 'driver', run: viaDriver[c.name] as () => Promise<unknown> },
            { name: 'hub', run: viaHub[c.name] as () => Promise<unknown> },
            { name: 'operation', run: () => runOperation(stack.ctx, c.tool, { ...c.args, device: id }) },
            { name: 'mcp-mem', run: () => (memory as McpCaller).call(c.tool, { ...c.args, device: id }) },
            { name: 'mcp-stdio', run: () => (stdio as McpCaller).call(c.tool, { ...c.args, device: id }) },
            {
              name: 'rest',
              run: () => (c.rest.method === 'GET' ? restClient.get(restPath) : restClient.post(restPath, c.rest.body ?? {})),
            },
          ];
          const blocks = quick ? 1 : c.slow ? 3 : 6;
          const perBlock = quick ? 2 : c.slow ? 3 : 25;
          const samples = await interleave(arms, { blocks, perBlock, warmup: c.slow ? 1 : 2, before: c.changeScreen === true ? scroll : c.changeScreen ? scrollBackAndForth : undefined });
          const s = Object.fromEntries(ARMS.map((a) => [a, summarize(samples[a] ?? [])])) as Record<ArmName, ReturnType<typeof summarize>>;
          const row: SectionResult['rows'][number] = { operation: c.name, floor: c.floor };
          for (const a of ARMS) {
            row[`${a} p50 ms`] = round(s[a].p50);
            row[`${a} p95 ms`] = round(s[a].p95);
            if (a !== 'raw') row[`${a} ×`] = round(s[a].p50 / s.raw.p50, 2);
          }
          row.n = s.raw.n;
          result.rows.push(row);
          log(`  ${c.name}: raw ${s.raw.p50.toFixed(2)} ms, operation ${s.operation.p50.toFixed(2)} ms, mcp-stdio ${s['mcp-stdio'].p50.toFixed(2)} ms, rest ${s.rest.p50.toFixed(2)} ms`);
          if (ADDED_LATENCY_CASES.has(c.name)) {
            const hubAdded = s.hub.p50 - s.raw.p50;
            const opAdded = s.operation.p50 - s.raw.p50;
            result.targets.push(target(`${c.name}: hub + driver, p50 added vs raw`, '< 1 ms', hubAdded, 'ms', hubAdded < 1));
            result.targets.push(target(`${c.name}: operation (validation + hub + driver), p50 added vs raw`, '< 1 ms', opAdded, 'ms', opAdded < 1));
          }
          if (c.name === 'tap') {
            const stdioAdded = s['mcp-stdio'].p50 - s.driver.p50;
            result.targets.push(target('tap: MCP over stdio, p50 added vs the direct driver call', '< 2 ms', stdioAdded, 'ms', stdioAdded < 2));
            if (phone.phone.version !== versionBefore) result.notes.push('the tap point changed the screen (expected a no-op tap)');
          }
        }
        result.notes.push(
          'describe_screen reads the tree and a screenshot (the geometry and the foreground app are known on an unchanged screen); its OCR and icon naming are cached on an unchanged screen, so this is the warm path.',
          'UI tree: on an unchanged screen the phone sends the same source, and the drivers reuse the tree they made from it (a string comparison); "UI tree (new screen each call)" scrolls the Settings list up and down again (in-process, unmeasured) before every call of every arm, so each read parses a source other than the last.',
          'find_text (OCR): the Settings list is scrolled (in-process, unmeasured) before every call of every arm, so each call runs OCR on new pixels.',
          'take_screenshot (operation and faces) answers a JPEG in points; on this unchanged screen the PNG is byte-identical each call, so the last encoding is reused (the screenshots section measures new pixels too); the floor is the PNG as the phone sends it.',
          'long_press asks for 100 ms (the shortest the operation allows) on every arm, raw included (the virtual iPhone does not wait it out); open_url reopens the same bundled page in the browser, and runs last.',
        );
        return result;
      } finally {
        await memory?.close();
        await stdio?.close();
        raw.close();
        restClient.close();
        await rest.close();
        await stack.close();
      }
    },
  };
}

export const operationsSection = createOperationsSection();

/**
 * take_screenshot's added cost, apart for a small screen and for the 1179×2556 virtual iPhone, each on an
 * unchanged screen (the last encoding is reused) and with new pixels before every call (decode, resize,
 * encode), arms interleaved in round-robin blocks:
 *
 *   raw        bare keep-alive `GET /screenshot` (the floor: the PNG as the phone sends it)
 *   driver     the WDA driver's `screenshot()` (HTTP + base64 decode)
 *   operation  `runOperation(ctx, 'take_screenshot', {})`: the default JPEG in points
 *   mcp-stdio  the SDK client → a spawned `apex mcp --config` over stdio (its own hub and driver)
 *   raw+decode the raw call, then its PNG decoded to RGB (sharp): what any resize must do before resizing
 *   stdio-floor  a spawned do-nothing child over stdio that calls the phone and answers as many characters as
 *              mcp-stdio's reply: the process hops and pipe bytes no stdio server avoids
 *
 * The small screen is a WebDriverAgent stand-in answering a 393×852 PNG (scale 1) made from the virtual
 * iPhone's Settings; the large one is the virtual iPhone (and a twin for the stdio server, one session each).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { createWdaDriver } from '@apex/driver-wda';
import { runOperation, screenshotEncoderOf } from '@apex/capability';
import { SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { interleave, type Arm } from './support/interleave';
import { stdioMcp, type McpCaller } from './support/mcp-clients';
import { startStdioFloor } from './support/stdio-floor';
import { rawWda } from './support/raw-wda';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round, summarize } from './support/stats';
import { startWdaStandIn } from './support/wda-stand-in';

const ARMS = ['raw', 'raw+decode', 'driver', 'operation', 'mcp-stdio', 'stdio-floor'] as const;
/** Unmeasured calls of every arm before the first case: the spawned server's JIT (its start-up is the `startup` section). */
const WARMUP_CALLS = 100;
const SMALL_ID = 'bench-small';
const SMALL_SCREEN = { width: 393, height: 852, scale: 1 };

/** The phone's PNG decoded to RGB pixels, as the screenshot encoder's decode does before a resize. */
async function decodeFloor(reply: string): Promise<void> {
  await sharp(Buffer.from((JSON.parse(reply) as { value: string }).value, 'base64')).removeAlpha().raw().toBuffer();
}

export const screenshotsSection: Section = {
  name: 'screenshots',
  description: 'take_screenshot added cost: small screen and 1179×2556, unchanged and new pixels each call',
  async run({ quick, log }): Promise<SectionResult> {
    const stack = await startStack(2);
    const [phone, twin] = stack.phones;
    const [driver] = stack.drivers;
    const [id] = stack.ids;
    if (!phone || !twin || !driver || !id) throw new Error('no phone');
    for (const p of [phone, twin]) p.phone.launchApp(SETTINGS_BUNDLE_ID);
    // Two small screens (Settings, and Settings scrolled): "new pixels" alternates between them.
    const smallPngs: Buffer[] = [];
    for (const dy of [0, 40]) {
      if (dy) phone.phone.drag(200, 500, 200, 500 - dy, 0.05);
      const big = Buffer.from(JSON.parse(await (await fetch(`${phone.url}/screenshot`)).text()).value, 'base64');
      smallPngs.push(await sharp(big).resize(SMALL_SCREEN.width, SMALL_SCREEN.height, { fit: 'fill' }).png().toBuffer());
    }
    const standIn = await startWdaStandIn(SMALL_SCREEN, smallPngs[0] as Buffer);
    const smallDriver = createWdaDriver({ deviceId: SMALL_ID, url: standIn.url });
    stack.hub.register({ id: SMALL_ID, driver: smallDriver });
    const configPath = path.join(stack.dir, 'screenshots-apex.json');
    writeFileSync(
      configPath,
      JSON.stringify({ devices: [{ id, driver: 'wda', url: twin.url, shared: true }, { id: SMALL_ID, driver: 'wda', url: standIn.url, shared: true }] }),
    );
    const rawBig = rawWda(phone.url);
    const rawSmall = rawWda(standIn.url);
    const floors = { small: startStdioFloor(standIn.url), big: startStdioFloor(twin.url) };
    let stdio: McpCaller | undefined;
    const result: SectionResult = {
      title: 'take_screenshot (default: JPEG, 1 px = 1 pt), median latency, ratio to the raw GET /screenshot and added ms',
      columns: ['screen', 'pixels', ...ARMS.flatMap((a) => [`${a} p50 ms`, ...(a === 'raw' ? [] : [`${a} ×`, `${a} added ms`])]), 'n'],
      rows: [],
      targets: [],
      notes: [],
    };
    try {
      stdio = await stdioMcp(configPath, `${stack.dir}/stdio-data`);
      for (let i = 0; i < (quick ? 2 : WARMUP_CALLS); i += 1) {
        await stdio.call('take_screenshot', { device: SMALL_ID });
        await runOperation(stack.ctx, 'take_screenshot', { device: SMALL_ID });
        await floors.small.call(1000);
      }
      let flip = false;
      const cases = [
        { screen: 'small (393×852 px, stand-in)', pixels: 'unchanged', device: SMALL_ID, raw: rawSmall, drv: smallDriver, floor: floors.small, before: undefined },
        {
          screen: 'small (393×852 px, stand-in)',
          pixels: 'new each call',
          device: SMALL_ID,
          raw: rawSmall,
          drv: smallDriver,
          floor: floors.small,
          before: () => {
            flip = !flip;
            standIn.show(smallPngs[flip ? 1 : 0] as Buffer);
          },
        },
        { screen: 'virtual iPhone (1179×2556 px)', pixels: 'unchanged', device: id, raw: rawBig, drv: driver, floor: floors.big, before: undefined },
        {
          screen: 'virtual iPhone (1179×2556 px)',
          pixels: 'new each call',
          device: id,
          raw: rawBig,
          drv: driver,
          floor: floors.big,
          before: async () => {
            // 20 pt up, 18 pt down, …, on both phones; each phone then renders its new PNG (unmeasured), so the
            // floor is the transfer, as on the small screen, and every arm gets pixels it has not encoded last.
            flip = !flip;
            for (const p of [phone, twin]) p.phone.drag(200, 500, 200, flip ? 480 : 518, 0.05);
            await Promise.all([phone, twin].map((p) => fetch(`${p.url}/screenshot`).then((r) => r.arrayBuffer())));
          },
        },
      ];
      for (const c of cases) {
        const live = new AbortController().signal;
        // The JSON-RPC line mcp-stdio's server writes for this case: its result plus the envelope.
        const replyChars = JSON.stringify({ jsonrpc: '2.0', id: 1, result: await stdio.call('take_screenshot', { device: c.device }) }).length;
        const arms: Arm[] = [
          { name: 'raw', run: () => c.raw.get('/screenshot') },
          { name: 'raw+decode', run: async () => decodeFloor(await c.raw.get('/screenshot')) },
          { name: 'driver', run: () => c.drv.screenshot(live) },
          { name: 'operation', run: () => runOperation(stack.ctx, 'take_screenshot', { device: c.device }) },
          { name: 'mcp-stdio', run: () => (stdio as McpCaller).call('take_screenshot', { device: c.device }) },
          { name: 'stdio-floor', run: () => c.floor.call(replyChars) },
        ];
        const samples = await interleave(arms, { blocks: quick ? 1 : 6, perBlock: quick ? 2 : 20, warmup: 2, before: c.before });
        const s = Object.fromEntries(ARMS.map((a) => [a, summarize(samples[a] ?? [])])) as Record<(typeof ARMS)[number], ReturnType<typeof summarize>>;
        const row: SectionResult['rows'][number] = { screen: c.screen, pixels: c.pixels };
        for (const a of ARMS) {
          row[`${a} p50 ms`] = round(s[a].p50);
          if (a !== 'raw') {
            row[`${a} ×`] = round(s[a].p50 / s.raw.p50, 2);
            row[`${a} added ms`] = round(s[a].p50 - s.raw.p50);
          }
        }
        row.n = s.raw.n;
        result.rows.push(row);
        log(`  ${c.screen}, ${c.pixels}: raw ${s.raw.p50.toFixed(2)} ms, operation ${s.operation.p50.toFixed(2)} ms, mcp-stdio ${s['mcp-stdio'].p50.toFixed(2)} ms`);
        if (c.device === SMALL_ID) {
          const ratio = s['mcp-stdio'].p50 / s.raw.p50;
          result.targets.push(target(`take_screenshot via MCP stdio, small screen, ${c.pixels}: ratio to raw`, '≤ 5×', ratio, '×', ratio <= 5));
        } else {
          const added = s.operation.p50 - s.raw.p50;
          result.targets.push(target(`take_screenshot added cost (operation − raw), 1179×2556, ${c.pixels}`, '≤ 12 ms', added, 'ms', added <= 12));
        }
      }
      const reuse = screenshotEncoderOf(stack.hub).stats();
      result.notes.push(
        `In-process encodings: ${reuse.encodes} encoded, ${reuse.reuses} answered with the last encoding (byte-identical PNG).`,
        'Floors: raw+decode is the raw call plus decoding its PNG to RGB, which any resize must do first; stdio-floor is a do-nothing child over stdio that calls the phone and answers as many characters as mcp-stdio does (process hops and pipe bytes).',
        '"new each call": before every call of every arm (unmeasured) the stand-in switches between two PNGs, or both phones scroll and render their new PNG, so no arm is answered with the encoding of its last call.',
      );
      return result;
    } finally {
      await stdio?.close();
      await Promise.all(Object.values(floors).map((f) => f.close()));
      rawBig.close();
      rawSmall.close();
      await standIn.close();
      await stack.close();
    }
  },
};

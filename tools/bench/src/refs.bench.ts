/**
 * Element refs (issue 16) on one virtual iPhone:
 *   - tap by ref vs tap by coordinates through a spawned `apex mcp` over stdio (the same switch, arms
 *     interleaved), with observe "none" (the ref arm reads the tree once more) and with the default "summary";
 *   - wait_for's notice latency: from the moment a text appears on the phone (Settings opened on the phone
 *     itself) to wait_for's answer, through the in-process MCP client.
 * Targets: tap by ref p50 ≤ tap by coordinates + 3 ms; wait_for notices within 300 ms.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SETTINGS_BUNDLE_ID } from '@apex/virtual-device';
import { interleave } from './support/interleave';
import { inMemoryMcp, stdioMcp } from './support/mcp-clients';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round, summarize } from './support/stats';

const TAP_TARGET_MS = 3;
const NOTICE_TARGET_MS = 300;

interface Element {
  ref: string;
  role: string;
  label?: string;
  center: { x: number; y: number };
}

export const refsSection: Section = {
  name: 'refs',
  description: 'tap by ref vs by coordinates over MCP stdio; wait_for notice latency',
  async run({ quick, log }): Promise<SectionResult> {
    const stack = await startStack(1);
    const [iphone] = stack.phones;
    const [device] = stack.ids;
    if (!iphone || !device) throw new Error('no phone');
    const stdio = await stdioMcp(stack.configPath, stack.dir);
    const local = await inMemoryMcp(stack.ctx);
    const result: SectionResult = {
      title: 'Element refs: tap by ref vs by coordinates (MCP stdio), wait_for notice latency (ms)',
      columns: ['case', 'p50 ms', 'p95 ms', 'mean ms', 'n'],
      rows: [],
      targets: [],
      notes: [],
    };
    try {
      iphone.phone.launchApp(SETTINGS_BUNDLE_ID);
      const described = (await stdio.call('describe_screen', { device, includeOcrText: false })).structuredContent as { elements: Element[] };
      // A switch: tapping it toggles in place, so every call of every arm finds the same screen shape.
      const toggle = described.elements.find((e) => e.role === 'switch' && e.label === 'Bluetooth');
      if (!toggle) throw new Error('no Bluetooth switch on Settings');
      const point = { x: toggle.center.x, y: toggle.center.y };
      const arms = [
        { name: 'tap by coordinates, observe none', run: () => stdio.call('tap', { device, ...point, observe: 'none' }) },
        { name: 'tap by ref, observe none', run: () => stdio.call('tap', { device, ref: toggle.ref, observe: 'none' }) },
        { name: 'tap by coordinates, observe summary (default)', run: () => stdio.call('tap', { device, ...point }) },
        { name: 'tap by ref, observe summary (default)', run: () => stdio.call('tap', { device, ref: toggle.ref }) },
      ];
      const samples = await interleave(arms, { blocks: quick ? 2 : 10, perBlock: quick ? 5 : 30, warmup: 2 });
      const p50 = (name: string) => summarize(samples[name] ?? []).p50;
      for (const arm of arms) {
        const s = summarize(samples[arm.name] ?? []);
        result.rows.push({ case: arm.name, 'p50 ms': round(s.p50), 'p95 ms': round(s.p95), 'mean ms': round(s.mean), n: s.n });
      }
      const added = p50('tap by ref, observe none') - p50('tap by coordinates, observe none');
      result.targets.push(target('tap by ref − tap by coordinates, p50 (MCP stdio, observe none)', `≤ ${TAP_TARGET_MS} ms`, added, 'ms', added <= TAP_TARGET_MS));
      const summaryCost = p50('tap by coordinates, observe summary (default)') - p50('tap by coordinates, observe none');
      result.notes.push(`observe "summary" (the default) adds ${round(summaryCost)} ms p50 to a tap by coordinates here (one tree read and the foreground app).`);
      log(`tap by ref adds ${round(added)} ms p50`);

      // wait_for: the text appears on the phone (not through Apex) at a known moment; how late is the answer?
      const notices: number[] = [];
      const rounds = quick ? 5 : 40;
      for (let i = 0; i < rounds; i += 1) {
        iphone.phone.pressButton('home');
        const waiting = local.call('wait_for', { device, text: 'General', timeoutMs: 10_000 });
        // Appear at a moment unrelated to the polling phase: 0–200 ms into the wait.
        await new Promise((resolve) => setTimeout(resolve, 20 + ((i * 37) % 180)));
        const appeared = process.hrtime.bigint();
        iphone.phone.launchApp(SETTINGS_BUNDLE_ID);
        const answer = (await waiting) as CallToolResult;
        const noticed = Number(process.hrtime.bigint() - appeared) / 1e6;
        if (!(answer.structuredContent as { met?: boolean }).met) throw new Error('wait_for did not see the text');
        notices.push(noticed);
      }
      const notice = summarize(notices);
      result.rows.push({ case: 'wait_for notices an appearing text', 'p50 ms': round(notice.p50), 'p95 ms': round(notice.p95), 'mean ms': round(notice.mean), n: notice.n });
      result.targets.push(target('wait_for notice latency, p95', `≤ ${NOTICE_TARGET_MS} ms`, notice.p95, 'ms', notice.p95 <= NOTICE_TARGET_MS));
      result.notes.push('wait_for reads the tree at most every 100 ms: the notice latency is bounded by that interval plus one tree read.');
    } finally {
      await stdio.close();
      await local.close();
      await stack.close();
    }
    return result;
  },
};

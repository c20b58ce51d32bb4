/**
 * Benchmark (not a test): what MCP over stdio adds to a tap.
 *
 *   npx tsx libs/mcp/bench/tap.bench.ts [iterations]
 *
 * One virtual iPhone (in this process, over real HTTP). "direct" is the driver's tap through the hub (the
 * device queue included); "mcp" is a `tools/call tap` from the SDK's real Client to a spawned `apex mcp`
 * whose configuration points at the same phone. Blocks alternate (direct, mcp, direct, mcp) so both see the
 * same machine; each block starts with unmeasured warm-up taps (the phone holds one session at a time, so
 * the first tap of a block re-creates it). The report is the p50 each way and the p50 added by MCP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRuntime, EMBEDDED_DEVICE_ID } from '@apex/runtime';

const ITERATIONS = Number(process.argv[2] ?? 200);
const WARMUP = 20;
const BLOCKS = 2;
/** An empty spot of the home screen: tapping it changes nothing. */
const POINT = { x: 196, y: 600 };
const APEX_BIN = path.resolve(__dirname, '../../../apps/cli/bin/apex.js');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(samples: number[], fn: () => Promise<unknown>, count: number): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await fn();
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

function summary(samples: number[]): { p50: number; p90: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apex-bench-'));
  const runtime = await createRuntime({ env: {}, dataDir: path.join(dir, 'direct') });
  const url = runtime.devices[0].url;
  const config = path.join(dir, 'apex.json');
  writeFileSync(config, JSON.stringify({ devices: [{ id: 'bench-phone', driver: 'wda', url, shared: true }] }));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [APEX_BIN, 'mcp', '--config', config],
    env: { ...(process.env as Record<string, string>), APEX_DATA_DIR: path.join(dir, 'mcp'), APEX_LOG_LEVEL: 'warn' },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'tap-bench', version: '1.0.0' });
  await client.connect(transport);

  const direct: number[] = [];
  const mcp: number[] = [];
  const directTap = () => runtime.hub.run(EMBEDDED_DEVICE_ID, 'tap', (driver) => driver.tap(POINT));
  const mcpTap = async () => {
    const result = (await client.callTool({ name: 'tap', arguments: POINT })) as CallToolResult;
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  try {
    for (let block = 0; block < BLOCKS; block++) {
      await time(direct, directTap, ITERATIONS / BLOCKS);
      await time(mcp, mcpTap, ITERATIONS / BLOCKS);
    }
  } finally {
    await client.close();
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const d = summary(direct);
  const m = summary(mcp);
  const fmt = (ms: number) => ms.toFixed(3).padStart(8);
  process.stdout.write(
    [
      `tap round trip, ${direct.length} + ${mcp.length} samples (ms)     p50      p90      p99`,
      `direct driver call (via hub)             ${fmt(d.p50)} ${fmt(d.p90)} ${fmt(d.p99)}`,
      `MCP tools/call over stdio                ${fmt(m.p50)} ${fmt(m.p90)} ${fmt(m.p99)}`,
      `added by MCP (p50)                       ${fmt(m.p50 - d.p50)}   target < 2 ms: ${m.p50 - d.p50 < 2 ? 'met' : 'NOT met'}`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`tap.bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

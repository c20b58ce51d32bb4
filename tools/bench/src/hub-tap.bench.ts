/**
 * Benchmark (not a test): what the hub + primitives + driver add to one tap, compared with the same raw
 * HTTP POST to the same device, measured in one run. Run from the repo root:
 *
 *   npx tsx libs/driver-wda/bench/tap.bench.ts [rounds] [tapsPerRound]
 *
 * The virtual iPhone runs in a child process (`apex emulator`), so both arms pay the same server cost and
 * this lib needs no import of the emulator. Arms alternate round by round to cancel drift.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeviceHub, tap } from '@apex/capability';
import { createWdaDriver } from '@apex/driver-wda';

const ROUNDS = Number(process.argv[2] ?? 10);
const TAPS_PER_ROUND = Number(process.argv[3] ?? 200);
const POINT = { x: 5, y: 30 };

function startEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const bin = path.resolve(__dirname, '../../../apps/cli/bin/apex.js');
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`emulator exited early (${code}): ${out}`)));
  });
}

/** The raw arm: a bare keep-alive POST, the way any client would send it. */
function rawClient(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(url);
  const post = (pathname: string, body: unknown) =>
    new Promise<string>((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const req = http.request(
        { host: base.hostname, port: base.port, path: pathname, method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { post, close: () => agent.destroy() };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { n: samples.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), mean };
}

async function main(): Promise<void> {
  const { url, child } = await startEmulator();
  const raw = rawClient(url);
  const hub = new DeviceHub();
  const driver = createWdaDriver({ deviceId: 'bench', url });
  hub.register({ id: 'bench', driver });
  try {
    // Warm both arms: session, sockets, screen geometry, JIT.
    await tap(hub, 'bench', POINT);
    // WDA holds one session: the raw arm uses the driver's, so neither arm invalidates the other's.
    const rawTapPath = `/session/${driver.sessionId}/wda/tap`;
    const check = JSON.parse(await raw.post(rawTapPath, POINT));
    if (check.value !== null) throw new Error(`the raw tap failed: ${JSON.stringify(check)}`);
    for (let i = 0; i < 200; i += 1) {
      await raw.post(rawTapPath, POINT);
      await tap(hub, 'bench', POINT);
    }

    const rawSamples: number[] = [];
    const hubSamples: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let i = 0; i < TAPS_PER_ROUND; i += 1) {
        const t0 = performance.now();
        const reply = await raw.post(rawTapPath, POINT);
        rawSamples.push(performance.now() - t0);
        if (!reply.includes('"value"') || reply.includes('"error"')) throw new Error(`the raw tap failed: ${reply}`);
      }
      for (let i = 0; i < TAPS_PER_ROUND; i += 1) {
        const t0 = performance.now();
        await tap(hub, 'bench', POINT);
        hubSamples.push(performance.now() - t0);
      }
    }
    const r = summary(rawSamples);
    const h = summary(hubSamples);
    const fmt = (v: number) => `${v.toFixed(3)} ms`;
    console.log(`tap benchmark: ${ROUNDS} rounds × ${TAPS_PER_ROUND} taps per arm, emulator at ${url}`);
    console.log(`raw HTTP POST     p50 ${fmt(r.p50)}  p95 ${fmt(r.p95)}  mean ${fmt(r.mean)}`);
    console.log(`hub + driver tap  p50 ${fmt(h.p50)}  p95 ${fmt(h.p95)}  mean ${fmt(h.mean)}`);
    console.log(`added             p50 ${fmt(h.p50 - r.p50)}  p95 ${fmt(h.p95 - r.p95)}  (target: p50 added < 1 ms)`);
  } finally {
    await hub.close();
    raw.close();
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

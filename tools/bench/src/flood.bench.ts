/**
 * A bad-input flood against a real REST server (with MCP at /mcp) on a virtual iPhone: regex-bomb field names,
 * 1 MiB bodies, deeply nested JSON and large noise templates for find_icon, sent by several attackers at once,
 * while a prober reads /healthz and an honest client taps. Figures: /healthz latency, the honest taps' latency,
 * and the event-loop delay of the process (server and clients share it, so the delay is an upper bound of the
 * server's). Target (issue 13): /healthz p99 < 250 ms; every honest call served.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { createRestLogger, startRestApi } from '@apex/rest';
import { target, type Section, type SectionResult } from './support/section';
import { startStack } from './support/stack';
import { percentile, round, timed } from './support/stats';

const MIB = 1024 * 1024;

/** Request bodies an attacker sends, built once so building them costs nothing during the run. */
async function attackBodies(): Promise<{ name: string; path: string; body: string }[]> {
  const bombKeys = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${'at ('.repeat(40)}${i}`, 1]));
  const bigKey = { ['at ('.repeat(MIB / 4 - 64)]: 1 };
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const noiseTemplate = async (side: number) => {
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (Math.imul(i + 1, 2654435761) >>> 24) & 0xff;
    return (await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png().toBuffer()).toString('base64');
  };
  return [
    { name: 'regex-bomb field names', path: 'tap', body: JSON.stringify({ x: 1, y: 1, ...bombKeys }) },
    { name: '1 MiB field name', path: 'tap', body: JSON.stringify(bigKey) },
    { name: 'over-limit body', path: 'tap', body: 'x'.repeat(MIB + 16) },
    { name: 'deep JSON', path: 'find-text', body: `{"text":"a","region":${deep}}` },
    { name: '600×600 noise template', path: 'find-icon', body: JSON.stringify({ template: await noiseTemplate(600) }) },
    { name: '256×256 noise template', path: 'find-icon', body: JSON.stringify({ template: await noiseTemplate(256) }) },
  ];
}

export const floodSection: Section = {
  name: 'flood',
  description: 'a bad-input flood (regex bombs, 1 MiB bodies, deep JSON, big templates): /healthz and honest taps',
  async run({ quick }): Promise<SectionResult> {
    const stack = await startStack(1);
    const api = await startRestApi(stack.ctx, { port: 0, logger: createRestLogger({ level: 'silent' }) });
    const [id] = stack.ids;
    const device = `${api.url}/devices/${encodeURIComponent(id as string)}`;
    const bodies = await attackBodies();
    const durationMs = quick ? 1_500 : 10_000;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const health: number[] = [];
    const taps: number[] = [];
    const answered = new Map<string, Map<number, number>>();
    let honestFailures = 0;
    let stop = false;
    const post = (path: string, body: string) =>
      fetch(`${device}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    try {
      loop.enable();
      const attackers = bodies.map(async ({ name, path, body }) => {
        const statuses = new Map<number, number>();
        answered.set(name, statuses);
        while (!stop) {
          const status = await post(path, body).then(
            async (res) => (await res.arrayBuffer(), res.status),
            () => 0,
          );
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      });
      const prober = (async () => {
        while (!stop) {
          health.push(await timed(async () => (await fetch(`${api.url}/healthz`)).arrayBuffer()));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const honest = (async () => {
        while (!stop) {
          const ms = await timed(async () => {
            const res = await post('tap', JSON.stringify({ x: 100, y: 100 }));
            await res.arrayBuffer();
            if (res.status !== 200) honestFailures += 1;
          });
          taps.push(ms);
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, durationMs));
      stop = true;
      await Promise.all([...attackers, prober, honest]);
    } finally {
      loop.disable();
      await api.close();
      await stack.close();
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const h = sorted(health);
    const t = sorted(taps);
    const loopP99 = loop.percentile(99) / 1e6;
    const loopMax = loop.max / 1e6;
    const rows = [
      { figure: '/healthz latency', n: h.length, p50: round(percentile(h, 50)), p99: round(percentile(h, 99)), max: round(h.at(-1) ?? NaN) },
      { figure: 'honest tap latency', n: t.length, p50: round(percentile(t, 50)), p99: round(percentile(t, 99)), max: round(t.at(-1) ?? NaN) },
      { figure: 'event-loop delay', n: loop.count, p50: round(loop.percentile(50) / 1e6), p99: round(loopP99), max: round(loopMax) },
    ];
    const notes = [
      `${durationMs / 1000} s; attackers (one connection each, back to back): ${[...answered].map(([name, s]) => `${name} → ${[...s].map(([code, n]) => `${code}×${n}`).join(' ')}`).join('; ')}.`,
      `honest taps that failed: ${honestFailures}.`,
    ];
    return {
      title: 'Under a bad-input flood (ms)',
      columns: ['figure', 'n', 'p50', 'p99', 'max'],
      rows,
      targets: [
        target('/healthz p99 under the flood', '< 250 ms', percentile(h, 99), 'ms', percentile(h, 99) < 250),
        target('honest taps failed under the flood', '0', honestFailures, 'calls', honestFailures === 0),
      ],
      notes,
      data: { eventLoopP99Ms: round(loopP99), eventLoopMaxMs: round(loopMax) },
    };
  },
};

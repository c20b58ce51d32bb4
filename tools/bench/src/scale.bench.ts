/**
 * 1, 4 and 16 virtual iPhones used in parallel, 50 taps each (each phone's taps one after the other, the
 * phones at once), through the operation layer in process and through the REST server over HTTP.
 * Throughput = all taps / wall time of the round.
 */
import { runOperation } from '@apex/capability';
import { createRestLogger, createRestServer } from '@apex/rest';
import { rawWda } from './support/raw-wda';
import type { Section, SectionResult } from './support/section';
import { startStack } from './support/stack';
import { round, summarize, timed } from './support/stats';

/** The status bar of the home screen: tapping it changes nothing. */
const POINT = { x: 5, y: 30 };

export const scaleSection: Section = {
  name: 'scale',
  description: '1, 4 and 16 virtual iPhones in parallel, 50 taps each: throughput, p95, errors',
  async run({ quick }): Promise<SectionResult> {
    const result: SectionResult = {
      title: 'Phones in parallel, taps each, through the operation layer and through REST',
      columns: ['phones', 'via', 'taps', 'wall ms', 'taps/s', 'p50 ms', 'p95 ms', 'errors'],
      rows: [],
      targets: [],
      notes: ['All phones, Apex and the client share this process (REST: one keep-alive connection per phone).'],
    };
    const taps = quick ? 5 : 50;
    for (const count of quick ? [1, 4] : [1, 4, 16]) {
      const stack = await startStack(count);
      const rest = createRestServer(stack.ctx, { logger: createRestLogger({ level: 'silent' }) });
      const { url } = await rest.listen(0, '127.0.0.1');
      const clients = stack.ids.map(() => rawWda(url));
      try {
        const ways: [string, (i: number) => Promise<unknown>][] = [
          ['operation', (i) => runOperation(stack.ctx, 'tap', { ...POINT, device: stack.ids[i] })],
          ['REST', (i) => (clients[i] as ReturnType<typeof rawWda>).post(`/devices/${stack.ids[i]}/tap`, POINT)],
        ];
        for (const [via, tapOn] of ways) {
          await Promise.all(stack.ids.map((_, i) => tapOn(i))); // sessions, sockets
          const samples: number[] = [];
          let errors = 0;
          const wall = await timed(() =>
            Promise.all(
              stack.ids.map(async (_, i) => {
                for (let n = 0; n < taps; n += 1) {
                  try {
                    samples.push(await timed(() => tapOn(i)));
                  } catch {
                    errors += 1;
                  }
                }
              }),
            ),
          );
          const s = summarize(samples);
          result.rows.push({
            phones: count,
            via,
            taps: count * taps,
            'wall ms': round(wall, 1),
            'taps/s': round((count * taps * 1000) / wall, 0),
            'p50 ms': round(s.p50),
            'p95 ms': round(s.p95),
            errors,
          });
        }
      } finally {
        clients.forEach((c) => c.close());
        await rest.close();
        await stack.close();
      }
    }
    return result;
  },
};

import { startVirtualIPhone, type VirtualIPhone } from '../../index';
import { WDA_ROUTES } from './routes';
import { WdaHttp } from '../../testing';

// Generous: a shared 2-core machine can be slow; nothing here asserts on time.
jest.setTimeout(120_000);

/** Every route, with and without a session, fed odd bodies: always a WDA envelope, never a crash. */
describe('robustness', () => {
  let iphone: VirtualIPhone;
  let wda: WdaHttp;

  beforeAll(async () => {
    iphone = await startVirtualIPhone();
    wda = new WdaHttp(iphone.url);
  });

  afterAll(async () => {
    await iphone.close();
  });

  /** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
  function random(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  const ODD_VALUES: unknown[] = [null, true, -1, 1e308, 'x', '', [], [1, 'a'], {}, { a: { b: [] } }, 'com.apple.Preferences', 0.5, 'up', [' ', '\n']];
  const KEYS = ['x', 'y', 'value', 'text', 'using', 'bundleId', 'name', 'direction', 'duration', 'fromX', 'toY', 'actions', 'orientation', 'settings', 'capabilities'];

  function oddBody(next: () => number): string {
    const roll = next();
    if (roll < 0.1) return 'not json at all';
    if (roll < 0.15) return '[1,2,3]';
    const body: Record<string, unknown> = {};
    for (const key of KEYS) if (next() < 0.4) body[key] = ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
    return JSON.stringify(body);
  }

  it('answers every route with an envelope whatever the body', async () => {
    const next = random(42);
    await wda.createSession();
    for (let round = 0; round < 3; round++) {
      for (const route of WDA_ROUTES) {
        const sessionId = (await wda.get('/status')).json.sessionId ?? 'NO-SESSION';
        const path = route.pattern.replace(/:uuid/g, '0A000000-0000-0000-2A05-000000000000').replace(/:name/g, 'label');
        const urls = route.mode === 'N' ? [path] : route.mode === 'S' ? [`/session/${sessionId}${path}`] : [path, `/session/${sessionId}${path}`];
        for (const url of urls) {
          const reply = await wda.call(route.method, url, route.method === 'GET' ? undefined : oddBody(next));
          if (url === '/health') continue;
          expect([200, 400, 404, 500]).toContain(reply.status);
          expect(reply.json).toHaveProperty('value');
          if (reply.status !== 200) expect(typeof reply.json.value.error).toBe('string');
        }
      }
    }
    expect((await wda.get('/status')).json.value.ready).toBe(true);
  });
});

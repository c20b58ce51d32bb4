import { startApexOverPhones, jsonClient, type Answer, type ApexOverPhones } from './support';

/**
 * 2,000 REST taps across 8 virtual iPhones with 64 requests in flight (20,000 under `npm run test:soak`).
 * Each phone has 8 logical clients; client c of phone d taps the points j = c, c+8, c+16, … one after the
 * other. Every point is distinct (x encodes j, y encodes the phone), and a recording proxy in front of each
 * phone sees what really reached it. So the test can tell: nothing failed, nothing was lost or sent twice,
 * no tap reached another phone, each client's taps reached the phone in the order it issued them, and a phone
 * never had two taps at once while 64 requests were in flight across phones.
 */
const SOAK = process.env.APEX_SOAK === '1';
const PHONES = 8;
const CONCURRENCY = 64;
const TOTAL = SOAK ? 20_000 : 2_000;
const CLIENTS_PER_PHONE = CONCURRENCY / PHONES;
const PER_PHONE = TOTAL / PHONES;
/** x = 10 + j·STEP stays within 10…260 pt; y = 10 + 4·phone stays in the status bar (taps there change nothing). */
const STEP = 250 / PER_PHONE;
const pointOf = (phone: number, j: number) => ({ x: 10 + j * STEP, y: 10 + 4 * phone });
const isTap = (r: { method: string; path: string }) => r.method === 'POST' && r.path.endsWith('/wda/tap');

describe(`REST under load: ${TOTAL} taps across ${PHONES} virtual iPhones at concurrency ${CONCURRENCY}`, () => {
  let apex: ApexOverPhones;
  let client: ReturnType<typeof jsonClient>;

  beforeAll(async () => {
    apex = await startApexOverPhones({ count: PHONES, record: true });
    client = jsonClient(apex.api.url, CONCURRENCY);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await apex?.close();
  }, 60_000);

  it(
    'answers every request, delivers every tap once, to its own phone, in each client’s order, one at a time per phone',
    async () => {
      const firstRequest = apex.proxies.map((p) => p.requests.length);
      const failures: Answer[] = [];
      let inFlight = 0;
      let peak = 0;
      const logicalClient = async (phone: number, c: number) => {
        for (let j = c; j < PER_PHONE; j += CLIENTS_PER_PHONE) {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          const answer = await client.post(`/devices/${apex.ids[phone]}/tap`, pointOf(phone, j));
          inFlight -= 1;
          if (answer.status !== 200) failures.push(answer);
        }
      };
      const clients: Promise<void>[] = [];
      for (let phone = 0; phone < PHONES; phone += 1) {
        for (let c = 0; c < CLIENTS_PER_PHONE; c += 1) clients.push(logicalClient(phone, c));
      }
      await Promise.all(clients);

      expect(failures).toEqual([]);
      expect(peak).toBe(CONCURRENCY);
      for (let phone = 0; phone < PHONES; phone += 1) {
        const proxy = apex.proxies[phone];
        if (!proxy) throw new Error('no proxy');
        const taps = proxy.requests.slice(firstRequest[phone]).filter(isTap);
        const points = taps.map((r) => JSON.parse(r.body) as { x: number; y: number });
        // Only this phone's taps, each exactly once.
        expect(points.every((p) => p.y === pointOf(phone, 0).y)).toBe(true);
        const order = points.map((p) => Math.round((p.x - 10) / STEP));
        expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: PER_PHONE }, (_, j) => j));
        // Each logical client's taps arrived in the order it issued them.
        for (let c = 0; c < CLIENTS_PER_PHONE; c += 1) {
          const mine = order.filter((j) => j % CLIENTS_PER_PHONE === c);
          expect(mine).toEqual([...mine].sort((a, b) => a - b));
        }
        // One tap at a time per phone: each tap's response passed the proxy before the next tap arrived.
        const eventIndex = new Map(proxy.events.map((e, i) => [e, i]));
        for (let i = 1; i < taps.length; i += 1) {
          const previous = taps[i - 1];
          const current = taps[i];
          if (!previous || !current) continue;
          expect(eventIndex.get(`request ${current.seq}`)).toBeGreaterThan(eventIndex.get(`response ${previous.seq}`) ?? Infinity);
        }
      }
      // Still serving normally.
      const devices = await client.get('/devices');
      expect(devices.status).toBe(200);
      expect((devices.body.devices as { state: string }[]).map((d) => d.state)).toEqual(Array(PHONES).fill('online'));
    },
    SOAK ? 900_000 : 180_000,
  );
});

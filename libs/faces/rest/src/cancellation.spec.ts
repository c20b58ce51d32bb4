import { request as httpRequest } from 'node:http';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { Perception } from '@apex/perception';
import { eventually } from '@apex/testing';
import { createRestLogger } from './logging';
import { createRestServer, type RestServer } from './server';

const WAIT = { timeoutMs: 10_000 };

/** A tap over HTTP; `abandon()` drops the connection before the answer. */
function tapRequest(base: string, point: { x: number; y: number }) {
  let abandon!: () => void;
  const answered = new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${base}/devices/phone/tap`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(point));
    abandon = () => req.destroy();
  });
  return { answered, abandon: () => abandon() };
}

describe('a REST client that gives up', () => {
  const driver = new FakeDriver();
  const hub = new DeviceHub({ backgroundProbes: false });
  hub.register({ id: 'phone', driver });
  const perception = new Perception(hub);
  let rest: RestServer;
  let base: string;

  beforeAll(async () => {
    rest = createRestServer({ hub, perception }, { logger: createRestLogger({ level: 'silent' }) });
    base = (await rest.listen(0)).url;
  });
  afterAll(async () => {
    await rest.close();
    await perception.close();
    await hub.close();
  });

  it('withdraws its queued action: the device never receives it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    driver.behave('tap', async () => held);
    const first = tapRequest(base, { x: 1, y: 1 });
    await eventually(() => driver.callsOf('tap').length === 1, { ...WAIT, what: 'the first tap to reach the device' });
    const second = tapRequest(base, { x: 2, y: 2 });
    second.answered.catch(() => undefined);
    await eventually(() => hub.waiting('phone') === 1, { ...WAIT, what: 'the second tap to wait in the queue' });

    second.abandon();
    await eventually(() => hub.waiting('phone') === 0, { ...WAIT, what: 'the abandoned tap to leave the queue' });
    release();
    expect(await first.answered).toBe(200);
    driver.behave('tap', undefined);
    expect(await tapRequest(base, { x: 3, y: 3 }).answered).toBe(200);
    expect(driver.callsOf('tap').map((c) => c.args[0])).toEqual([{ x: 1, y: 1 }, { x: 3, y: 3 }]);
  });
});

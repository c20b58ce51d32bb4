import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { decodeMp4Frames, meanDifference, readMp4Facts } from '@apex/recording/testing';
import { eventually } from '@apex/testing';
import { TestCluster, WAIT, type ApexNode, type Json } from './support';

/**
 * `cluster.listAll`: a node lists the phones other nodes hold, each with its node, and sends their operations
 * to that node over its REST API with the cluster's token. Real `apex serve` processes over real HTTP, one
 * real PostgreSQL. Nodes: A (listAll, the right token), B (holds two phones), C (no listAll: as before),
 * D (listAll, a wrong token). Every node serves with the same APEX_TOKEN.
 */
const TOKEN = 'cluster-secret-7f3a';
const WRONG = 'not-the-token-91c2';
const LEASE = { leaseMs: 6_000, renewMs: 300 };
const SETTINGS = 'com.apple.Preferences';
const SPRINGBOARD = 'com.apple.springboard';

describe('a cluster node with listAll forwards the operations on the phones of other nodes', () => {
  let cluster: TestCluster;

  const startNode = (name: string, devices: string[], settings: Json, env: Record<string, string> = {}): Promise<ApexNode> =>
    cluster.startNode(name, devices, { cluster: { ...LEASE, ...settings }, tasks: { maxQueuedPerDevice: 2 }, env });
  const node = (name: string): ApexNode => cluster.node(name);
  const phone = (id: string) => cluster.phone(id);
  const call = (...args: Parameters<TestCluster['call']>) => cluster.call(...args);
  const listed = (on: ApexNode): Promise<Json[]> => cluster.listed(on);

  beforeAll(async () => {
    cluster = await TestCluster.start({ phones: ['a-phone', 'b-phone-1', 'b-phone-2', 'c-phone', 'both-phone'], token: TOKEN });
    // both-phone is in A's config and B's (a phone both reach, say through a Grid): B, started first, holds it.
    await startNode('B', ['b-phone-1', 'b-phone-2', 'both-phone'], {});
    await startNode('A', ['a-phone', 'both-phone'], { listAll: true, forwardTimeoutMs: 5_000 });
    await startNode('C', ['c-phone'], {});
    // D's token comes from the environment, which wins over the config's (here: the right one).
    await startNode('D', [], { listAll: true, token: TOKEN }, { APEX_CLUSTER_TOKEN: WRONG });
    // E has no token at all (it serves without one, and sends none).
    await startNode('E', [], { listAll: true }, { APEX_TOKEN: '' });
    // A lists B's phones once B has registered the address it answers on.
    await eventually(async () => (await listed(node('A'))).some((d) => d['id'] === 'b-phone-1' && d['node'] !== undefined), { ...WAIT, what: 'A to list B’s phones with B' });
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  beforeEach(() => {
    for (const p of cluster.phones.values()) p.phone.goHome();
  });

  /** The centre of the Settings icon on the phone's home screen, as found through `base` (find_text). */
  async function settingsIcon(base: string, device: string): Promise<{ x: number; y: number }> {
    const found = await call(base, 'POST', `/devices/${device}/find-text`, { text: 'Settings' });
    expect(found.status).toBe(200);
    const matches = found.body['matches'] as Array<{ center: { x: number; y: number } }>;
    expect(matches.length).toBeGreaterThan(0);
    return matches[0].center;
  }

  it('lists the phones of the other nodes with their node on a listAll node, and as before on the others', async () => {
    const b = node('B');
    const onA = await listed(node('A'));
    const nodeOfB = { id: expect.any(String), url: b.url };
    expect(onA.find((d) => d['id'] === 'b-phone-1')).toMatchObject({ platform: 'ios', state: 'online', node: nodeOfB });
    expect(onA.find((d) => d['id'] === 'b-phone-2')).toMatchObject({ node: nodeOfB });
    // Its own phone has no node; C's phone is C's; one id per phone.
    expect(onA.find((d) => d['id'] === 'a-phone')?.['node']).toBeUndefined();
    expect(onA.find((d) => d['id'] === 'c-phone')).toMatchObject({ node: { url: node('C').url } });
    expect(new Set(onA.map((d) => d['id'])).size).toBe(onA.length);

    // Without listAll nothing changes: B's phones are busy with their node, and refused.
    const onC = await listed(node('C'));
    expect(onC.find((d) => d['id'] === 'b-phone-1')).toMatchObject({ state: 'busy', owner: { pid: expect.any(Number) } });
    expect(onC.find((d) => d['id'] === 'b-phone-1')?.['node']).toBeUndefined();
    const refused = await call(node('C').url, 'POST', '/devices/b-phone-1/press-button', { button: 'home' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'device_busy' } });
  });

  it('forwards a phone of its own config that B holds to B, as it does the others', async () => {
    const a = node('A');
    await eventually(async () => (await listed(a)).some((d) => d['id'] === 'both-phone' && d['node'] !== undefined), { ...WAIT, what: 'A to list both-phone with B' });
    expect((await listed(a)).find((d) => d['id'] === 'both-phone')).toMatchObject({ state: 'online', node: { url: node('B').url } });
    phone('both-phone').phone.launchApp(SETTINGS);
    const pressed = await call(a.url, 'POST', '/devices/both-phone/press-button', { button: 'home' });
    expect(pressed.status).toBe(200);
    expect(phone('both-phone').phone.activeApp().bundleId).toBe(SPRINGBOARD);
    // Through B, which holds it (its request log), not by A itself.
    await eventually(() => node('B').run.stderr().split('\n').some((line) => line.includes('/devices/both-phone/press-button') && line.includes('"status":200')), {
      ...WAIT,
      what: 'B to log the forwarded call',
    });
  });

  it("taps and takes a screenshot on B's phone through A's REST API", async () => {
    const a = node('A');
    const target = await settingsIcon(a.url, 'b-phone-1');
    expect(phone('b-phone-1').phone.activeApp().bundleId).toBe(SPRINGBOARD);
    const tapped = await call(a.url, 'POST', '/devices/b-phone-1/tap', target);
    expect(tapped.status).toBe(200);
    expect(tapped.body).toMatchObject({ tapped: target, observed: { app: { appId: SETTINGS } } });
    // B's phone, read directly: Settings is in front; B's other phone and A's own were not touched.
    expect(phone('b-phone-1').phone.activeApp().bundleId).toBe(SETTINGS);
    expect(phone('b-phone-2').phone.activeApp().bundleId).toBe(SPRINGBOARD);
    expect(phone('a-phone').phone.activeApp().bundleId).toBe(SPRINGBOARD);

    // The screenshot crosses as an image: the same pixels as B serves itself.
    const viaA = await call(a.url, 'POST', '/devices/b-phone-1/screenshot', { format: 'png' }, { accept: 'image/png' });
    expect([viaA.status, viaA.headers.get('content-type')]).toEqual([200, 'image/png']);
    const meta = await sharp(viaA.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([Number(viaA.headers.get('x-image-width')), Number(viaA.headers.get('x-image-height'))]);
    const viaB = await call(node('B').url, 'POST', '/devices/b-phone-1/screenshot', { format: 'png' }, { accept: 'image/png' });
    const raw = (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer();
    expect(meanDifference(await raw(viaA.bytes), await raw(viaB.bytes))).toBeLessThan(2);
    // …and not A's own phone, which shows its home screen.
    const own = await call(a.url, 'POST', '/devices/a-phone/screenshot', { format: 'png' }, { accept: 'image/png' });
    expect(meanDifference(await raw(viaA.bytes), await raw(own.bytes))).toBeGreaterThan(5);

    // A request that was itself forwarded is never sent on: A answers for it without reaching B.
    phone('b-phone-1').phone.goHome();
    const hop = await call(a.url, 'POST', '/devices/b-phone-1/tap', target, { 'apex-forwarded': '1' });
    expect(hop).toMatchObject({ status: 503, body: { code: 'unavailable', retryable: true } });
    expect(phone('b-phone-1').phone.activeApp().bundleId).toBe(SPRINGBOARD);

    // A semantic error comes back as B gives it.
    const stale = await call(a.url, 'POST', '/devices/b-phone-1/tap', { ref: 'e99999' });
    const direct = await call(node('B').url, 'POST', '/devices/b-phone-1/tap', { ref: 'e99999' });
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect({ status: stale.status, code: stale.body['code'], detail: stale.body['detail'] }).toEqual({
      status: direct.status,
      code: direct.body['code'],
      detail: direct.body['detail'],
    });
  }, 120_000);

  it("taps and takes a screenshot on B's phone through A's MCP endpoint", async () => {
    const client = await cluster.mcp(node('A'));
    try {
      const listedTool = await client.callTool({ name: 'list_devices', arguments: {} });
      const devices = (listedTool.structuredContent as { devices: Json[] }).devices;
      expect(devices.find((d) => d['id'] === 'b-phone-2')).toMatchObject({ node: { url: node('B').url } });

      const found = await client.callTool({ name: 'find_text', arguments: { device: 'b-phone-2', text: 'Settings' } });
      expect(found.isError).toBeFalsy();
      const { center } = (found.structuredContent as { matches: Array<{ center: { x: number; y: number } }> }).matches[0];
      const tapped = await client.callTool({ name: 'tap', arguments: { device: 'b-phone-2', ...center } });
      expect(tapped.isError).toBeFalsy();
      expect((tapped.content as Array<{ type: string; text?: string }>)[0].text).toMatch(/Tapped .*\nNow: Settings/);
      expect(phone('b-phone-2').phone.activeApp().bundleId).toBe(SETTINGS);

      const shot = await client.callTool({ name: 'take_screenshot', arguments: { device: 'b-phone-2' } });
      expect(shot.isError).toBeFalsy();
      const image = (shot.content as Array<{ type: string; data?: string; mimeType?: string }>).find((c) => c.type === 'image');
      expect(image?.mimeType).toMatch(/^image\/(png|jpeg)$/);
      const meta = await sharp(Buffer.from(image?.data ?? '', 'base64')).metadata();
      expect([meta.width, meta.height]).toEqual([(shot.structuredContent as Json)['width'], (shot.structuredContent as Json)['height']]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("describes B's phone through A's MCP endpoint in the same words as B does: the description's text, not its JSON", async () => {
    const [viaA, onB] = [await cluster.mcp(node('A')), await cluster.mcp(node('B'))];
    const text = (result: Awaited<ReturnType<typeof viaA.callTool>>): string => {
      // An error shows its content.
      expect(result.isError ? result.content : 'no error').toBe('no error');
      // Refs are numbered by the node that issued them.
      return String((result.content as Array<{ text?: string }>)[0].text).replace(/\be\d+\b/g, 'e#');
    };
    try {
      const described = { name: 'describe_screen', arguments: { device: 'b-phone-2', includeOcrText: false } };
      // B first: its first description starts its perception, which may take longer than A's forwarding limit here.
      const local = text(await onB.callTool(described));
      const remote = text(await viaA.callTool(described));
      expect(remote).toBe(local);
      expect(remote).toMatch(/ · \d+×\d+ pt/);
      expect(remote).toMatch(/\ne# \w+ "Settings" @\d+,\d+/);
      // An action that observes with "describe" ends with the same text as well.
      const pressed = { name: 'press_button', arguments: { device: 'b-phone-2', button: 'home', observe: 'describe' } };
      const pressedOnB = text(await onB.callTool(pressed));
      expect(text(await viaA.callTool(pressed))).toBe(pressedOnB);
    } finally {
      await viaA.close();
      await onB.close();
    }
  }, 120_000);

  it("lists B's phone with the state B last reported: offline once B found it gone, online again once it is back", async () => {
    const [a, b] = [node('A'), node('B')];
    const onA = async () => (await listed(a)).find((d) => d['id'] === 'b-phone-2');
    // B reports the phone `busy` when a call on it runs as it renews its lease (on a loaded machine, one the tests
    // before started may still run): online by a later renewal.
    await eventually(async () => (await onA())?.['state'] === 'online', { ...WAIT, what: 'A to list the phone online' });
    expect(await onA()).toMatchObject({ state: 'online', node: { url: b.url } });
    await phone('b-phone-2').faults.goOffline();
    try {
      // B finds out on the next call (forwarded from A), and says so on its next renewal.
      const failed = await call(a.url, 'POST', '/devices/b-phone-2/press-button', { button: 'home' });
      expect(failed.body['code']).toBe('device_offline');
      await eventually(async () => (await onA())?.['state'] === 'offline', { ...WAIT, what: 'A to list the phone offline' });
      const listedOffline = await onA();
      expect(listedOffline).toMatchObject({ node: { url: b.url } });
      // A fresh report: nothing to say about its age.
      expect(listedOffline?.['note']).toBeUndefined();
    } finally {
      await phone('b-phone-2').faults.comeBack();
    }
    // B's own probe finds it back; A lists what B reports.
    await eventually(async () => (await onA())?.['state'] === 'online', { ...WAIT, what: 'A to list the phone online again' });
  }, 120_000);

  it('records a task posted on A on the node that runs it (B), and serves its recording from A: an MP4 that decodes', async () => {
    const started = await call(node('A').url, 'POST', '/agent/task', { device: 'b-phone-1', goal: 'open Settings', planner: 'offline', record: true });
    expect(started.status).toBe(202);
    const taskId = String(started.body['taskId']);
    const done = await eventually(
      async () => {
        const seen = (await call(node('A').url, 'GET', `/task/${taskId}`)).body;
        return ['succeeded', 'failed', 'cancelled'].includes(String(seen['status'])) ? seen : undefined;
      },
      { ...WAIT, what: 'the recorded task to end' },
    );
    expect(done).toMatchObject({ status: 'succeeded', recording: { id: expect.stringMatching(/^rec-/) } });
    // Recorded by B, the node that ran it (only the recording shows, not the request to record).
    expect(done).not.toHaveProperty('record');
    const startedOn = [...cluster.nodes.values()].filter((n) => n.run.stderr().split('\n').some((line) => line.includes('"task started"') && line.includes(taskId)));
    expect(startedOn.map((n) => n.name)).toEqual(['B']);
    const link = (done as { recording: { url: string } }).recording.url;
    const video = await call(node('A').url, 'GET', link);
    expect([video.status, video.headers.get('content-type')]).toEqual([200, 'video/mp4']);
    expect(video.bytes.length).toBe(Number(video.headers.get('content-length')));
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const facts = readMp4Facts(video.bytes);
    expect(facts).toMatchObject({ codec: 'avc1' });
    expect(facts.frames).toBeGreaterThan(0);
    const file = join(cluster.dir, 'from-a.mp4');
    writeFileSync(file, video.bytes);
    expect((await decodeMp4Frames(file)).frames).toHaveLength(facts.frames);
    // The same bytes as B serves.
    const fromB = await call(node('B').url, 'GET', link);
    expect(fromB.bytes.equals(video.bytes)).toBe(true);
  }, 180_000);

  it("counts a phone's queue over the whole cluster: posts on any node stop at the limit", async () => {
    const posted: string[] = [];
    const post = async (on: string) => {
      const answer = await call(node(on).url, 'POST', '/agent/task', { device: 'b-phone-1', goal: 'open Settings', planner: 'offline' });
      if (answer.status === 202) posted.push(String(answer.body['taskId']));
      return answer;
    };
    // A task that runs (stuck on a slow phone) is not queued: the two after it are, whichever node took them.
    phone('b-phone-1').faults.setLatency(60_000);
    try {
      expect((await post('A')).status).toBe(202);
      await eventually(async () => (await call(node('C').url, 'GET', `/task/${posted[0]}`)).body['status'] === 'running', { ...WAIT, what: 'the first task to run' });
      expect((await post('A')).status).toBe(202);
      expect((await post('C')).status).toBe(202);
      for (const on of ['C', 'A', 'B']) {
        const refused = await post(on);
        expect(refused).toMatchObject({ status: 409, body: { code: 'device_busy' } });
        expect(String(refused.body['detail'])).toMatch(/already has 2 queued tasks/);
      }
    } finally {
      for (const id of posted) await call(node('A').url, 'POST', `/task/${id}/cancel`);
      phone('b-phone-1').faults.reset();
    }
    expect(posted).toHaveLength(3);
  }, 120_000);

  it("is refused by B when the token is wrong or missing: the forwarding node's answer says so, and nothing reaches the phone", async () => {
    for (const n of [node('D'), node('E')]) {
      await eventually(async () => (await listed(n)).some((x) => x['id'] === 'b-phone-1' && x['node'] !== undefined), { ...WAIT, what: `${n.name} to list B’s phones` });
    }
    const refused = await call(node('D').url, 'POST', '/devices/b-phone-1/press-button', { button: 'home' });
    phone('b-phone-1').phone.launchApp(SETTINGS);
    const again = await call(node('D').url, 'POST', '/devices/b-phone-1/press-button', { button: 'home' });
    const missing = await call(node('E').url, 'POST', '/devices/b-phone-1/press-button', { button: 'home' });
    for (const answer of [refused, again, missing]) {
      expect(answer).toMatchObject({ status: 503, body: { code: 'unavailable', retryable: false } });
      expect(String(answer.body['detail'])).toContain(node('B').url);
      expect(String(answer.body['detail'])).toMatch(/refused this node's cluster token/);
    }
    // B checked the bearer as any client's: 401, and its phone stayed in Settings.
    expect(phone('b-phone-1').phone.activeApp().bundleId).toBe(SETTINGS);
    await eventually(() => node('B').run.stderr().split('\n').filter((line) => line.includes('"status":401') && line.includes('press-button')).length === 3, { ...WAIT, what: 'B to log the refusals' });
    // No node logged or answered either token.
    for (const n of cluster.nodes.values()) {
      expect(n.run.stderr()).not.toContain(TOKEN);
      expect(n.run.stderr()).not.toContain(WRONG);
    }
    expect(JSON.stringify(refused.body)).not.toContain(WRONG);
  }, 60_000);

  it('answers unavailable naming B when B does not answer in time (stopped) or is gone (SIGKILL), never hanging', async () => {
    const a = node('A');
    const b = node('B');
    // Stopped: the forwarded request is ended at A's limit (5 s).
    b.run.child.kill('SIGSTOP');
    const late = await call(a.url, 'POST', '/devices/b-phone-2/press-button', { button: 'home' });
    b.run.child.kill('SIGCONT');
    expect(late).toMatchObject({ status: 503, body: { code: 'unavailable', retryable: true } });
    expect(String(late.body['detail'])).toMatch(new RegExp(`${b.url.replace(/[.]/g, '\\.')}.*did not answer within 5 s`));

    // B takes its phones back once it runs again; then it is killed.
    await eventually(async () => (await call(a.url, 'POST', '/devices/b-phone-2/press-button', { button: 'home' })).status === 200, { ...WAIT, what: 'B to answer again' });
    b.run.child.kill('SIGKILL');
    await b.run.exited;
    const gone = await call(a.url, 'POST', '/devices/b-phone-2/press-button', { button: 'home' });
    expect(gone).toMatchObject({ status: 503, body: { code: 'unavailable', retryable: true } });
    expect(String(gone.body['detail'])).toMatch(/cannot be reached/);
    expect(String(gone.body['detail'])).toContain(b.url);
    expect(JSON.stringify(gone.body)).not.toMatch(/ECONNREFUSED|fetch failed|socket/i);
    // Once B's lease lapses its phones leave A's list.
    await eventually(async () => !(await listed(a)).some((x) => x['id'] === 'b-phone-2'), { ...WAIT, what: 'B’s phones to leave A’s list' });
  }, 120_000);
});

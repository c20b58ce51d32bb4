import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { leakedWordsIn } from '@apex/errors/testing';
import { decodeMp4Frames, meanDifference, readMp4Facts } from '@apex/recording/testing';
import { eventually } from '@apex/testing';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

const EXAMPLE = readFileSync(path.resolve(__dirname, '../../../../examples/flows/settings-about.yaml'), 'utf8');
const SETTINGS = 'com.apple.Preferences';

/** Screen recording as `apex serve` offers it: MCP tools and REST routes over the embedded virtual iPhone. */
describe('screen recording over MCP and REST, on the embedded virtual iPhone', () => {
  let h: RestHarness;
  let client: Client;
  const seen: string[] = [];

  beforeAll(async () => {
    h = await startRestHarness();
    client = new Client({ name: 'recording-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`)));
  }, 60_000);
  afterAll(async () => {
    for (const text of seen) expect(leakedWordsIn(text)).toEqual([]);
    await client.close();
    await h.close();
  }, 60_000);

  async function tool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    seen.push(JSON.stringify(result));
    return result;
  }
  const codeOf = (result: CallToolResult) => (result._meta?.['apex/error'] as { code?: string } | undefined)?.code;
  const recordingNow = async () => ((await call(h.url, 'GET', '/recordings')).body.recordings as { recording: boolean; seconds: number }[]).find((r) => r.recording);

  it('GET /recordings/{id} answers range requests with 206 and exactly those bytes; unknown ids are 404, malformed ones 400', async () => {
    await call(h.url, 'POST', `/devices/${DEVICE}/recording/start`, { body: { fps: 5 } });
    const stopped = await call(h.url, 'POST', `/devices/${DEVICE}/recording/stop`, {});
    expect(stopped.status).toBe(200);
    const url = `${h.url}${String(stopped.body.url)}`;
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(whole.length).toBe(stopped.body.bytes);

    const part = await fetch(url, { headers: { Range: 'bytes=100-299' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${whole.length}`);
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(100, 300));
    const tail = await fetch(url, { headers: { Range: 'bytes=-50' } });
    expect([tail.status, Buffer.from(await tail.arrayBuffer())]).toEqual([206, whole.subarray(whole.length - 50)]);
    const beyond = await fetch(url, { headers: { Range: `bytes=${whole.length + 10}-` } });
    expect(beyond.status).toBe(416);

    const unknown = await call(h.url, 'GET', '/recordings/rec-aaaaaaaaaaaaaaaaaaaa');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'recording_not_found']);
    const malformed = await call(h.url, 'GET', '/recordings/..%2F..%2Fetc%2Fpasswd');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_argument');
  }, 60_000);

  it('one recording per device: a second start is device_busy on both faces; stopping through REST ends it', async () => {
    const first = await call(h.url, 'POST', `/devices/${DEVICE}/recording/start`, { body: {} });
    expect(first.status).toBe(201);
    const again = await call(h.url, 'POST', `/devices/${DEVICE}/recording/start`, { body: {} });
    expect([again.status, again.body.code]).toEqual([409, 'device_busy']);
    const viaMcp = await tool('start_recording', {});
    expect([viaMcp.isError, codeOf(viaMcp)]).toEqual([true, 'device_busy']);
    const stopped = await call(h.url, 'POST', `/devices/${DEVICE}/recording/stop`, {});
    expect(stopped.body).toMatchObject({ id: first.body.id, endedBy: 'stopped' });
    const nothing = await call(h.url, 'POST', `/devices/${DEVICE}/recording/stop`, {});
    expect([nothing.status, nothing.body.code]).toEqual([400, 'invalid_argument']);
  }, 60_000);

  it.each([
    [{ fps: 0 }, 'fps'],
    [{ scale: 1_000 }, 'scale'],
    [{ maxSeconds: 100_000 }, 'maxSeconds'],
  ])('bad input %o is invalid_argument on both faces, and nothing starts', async (args, field) => {
    const rest = await call(h.url, 'POST', `/devices/${DEVICE}/recording/start`, { body: args });
    expect([rest.status, rest.body.code]).toEqual([400, 'invalid_argument']);
    expect(JSON.stringify(rest.body)).toContain(field);
    const mcp = await tool('start_recording', args);
    expect([mcp.isError, codeOf(mcp)]).toEqual([true, 'invalid_argument']);
    expect(await recordingNow()).toBeUndefined();
  });

  it('ends itself at maxSeconds, leaving a complete file that the next stop answers and the list shows', async () => {
    const started = await tool('start_recording', { fps: 4, maxSeconds: 1 });
    const { id } = started.structuredContent as { id: string };
    await eventually(async () => (await recordingNow()) === undefined, { timeoutMs: 30_000, intervalMs: 100, what: 'the recording to end' });
    const listed = await tool('list_recordings', { limit: 1 });
    expect(listed.structuredContent).toMatchObject({ recordings: [{ id, recording: false, endedBy: 'max_seconds', frames: 4, seconds: 1, url: `/recordings/${id}` }] });
    const stopped = await tool('stop_recording', {});
    expect(stopped.structuredContent).toMatchObject({ id, endedBy: 'max_seconds', frames: 4 });
    const { path: local } = await h.runtime.recordings.recordingFile(id);
    expect(readMp4Facts(readFileSync(local))).toMatchObject({ frames: 4, seconds: 1 });
  }, 60_000);

  it('records the embedded Android phone the same way: a complete MP4 of its screen, decodable frame by frame', async () => {
    const started = await tool('start_recording', { device: 'android-virtual', fps: 4, maxSeconds: 1 });
    expect(started.isError ?? false).toBe(false);
    const { id } = started.structuredContent as { id: string };
    await eventually(async () => (await recordingNow()) === undefined, { timeoutMs: 30_000, intervalMs: 100, what: 'the Android recording to end' });
    const stopped = await tool('stop_recording', { device: 'android-virtual' });
    expect(stopped.structuredContent).toMatchObject({ id, device: 'android-virtual', endedBy: 'max_seconds', frames: 4 });
    const { path: local } = await h.runtime.recordings.recordingFile(id);
    expect(readMp4Facts(readFileSync(local))).toMatchObject({ frames: 4, seconds: 1 });
    expect((await decodeMp4Frames(local)).frames).toHaveLength(4);
  }, 60_000);

  it('records 10 s while a flow runs: the MP4 lasts the wall time, and the flow\'s screens are in it, in order', async () => {
    const phone = h.runtime.embedded?.phone;
    phone?.terminateApp(SETTINGS);
    phone?.pressButton('home');
    const fps = 10;
    const outerStart = performance.now();
    const started = await tool('start_recording', { fps });
    const innerStart = performance.now();
    expect(started.isError).toBeFalsy();
    const { id, width, height } = started.structuredContent as { id: string; width: number; height: number };

    const run = await call(h.url, 'POST', '/flows/run', { body: { yaml: EXAMPLE, device: DEVICE } });
    const task = await h.runtime.tasks.whenSettled(String(run.body.taskId));
    expect(task.status).toBe('succeeded');
    await eventually(async () => ((await recordingNow())?.seconds ?? 0) >= 10, { timeoutMs: 60_000, intervalMs: 200, what: '10 s of video' });

    const innerEnd = performance.now();
    const stopped = await tool('stop_recording', {});
    const outerEnd = performance.now();
    expect(stopped.isError).toBeFalsy();
    const out = stopped.structuredContent as { id: string; url: string; seconds: number; frames: number; bytes: number; endedBy: string };
    expect(out).toMatchObject({ id, url: `/recordings/${id}`, endedBy: 'stopped' });
    // No host path in the result: the url is served by REST.
    expect(JSON.stringify(stopped)).not.toContain(h.runtime.dataDir);
    // Wall time, to within one frame: between the calls' inner and outer bounds.
    expect(out.seconds).toBeGreaterThanOrEqual(10);
    expect(out.seconds).toBeGreaterThanOrEqual((innerEnd - innerStart) / 1000 - 1 / fps);
    expect(out.seconds).toBeLessThanOrEqual((outerEnd - outerStart) / 1000 + 1 / fps);
    expect(out.frames).toBe(Math.round(out.seconds * fps));

    const video = await fetch(`${h.url}${out.url}`);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const file = Buffer.from(await video.arrayBuffer());
    expect(file.length).toBe(out.bytes);
    const facts = readMp4Facts(file);
    expect(facts).toMatchObject({ codec: 'avc1', frames: out.frames, width, height, moovFirst: true });
    expect(facts.seconds).toBeCloseTo(out.seconds, 2);

    const { path: local } = await h.runtime.recordings.recordingFile(id);
    // Compared at a quarter of the size: enough to tell screens apart, and quick.
    const small = { width: Math.round(width / 8) * 2, height: Math.round(height / 8) * 2 };
    const shrink = (image: Buffer) => sharp(image).resize(small.width, small.height, { fit: 'fill', kernel: 'linear' }).removeAlpha().raw().toBuffer();
    const decoded = await decodeMp4Frames(local, small);
    expect(decoded.frames).toHaveLength(out.frames);
    // Each step's screenshot (taken by the flow) is in the video, in the order of the steps: the frame most like
    // it is close to it, and clearly closer to it than to any other step's screen.
    expect(task.steps.length).toBeGreaterThanOrEqual(3);
    const shots: Buffer[] = [];
    for (let step = 1; step <= task.steps.length; step++) shots.push(await shrink((await h.runtime.stepScreenshots.stepScreenshot(task.id, step)).data));
    let previous = -1;
    for (const [index, shot] of shots.entries()) {
      const differences: number[] = [];
      for (const frame of decoded.frames) {
        differences.push(meanDifference(frame, shot));
        // A frame at a time: the comparisons never hold up the servers (and their idle sockets' timers) in this process.
        await new Promise(setImmediate);
      }
      const best = differences.indexOf(Math.min(...differences));
      expect(differences[best]).toBeLessThan(6);
      for (const other of shots.filter((_, i) => i !== index)) {
        expect(meanDifference(decoded.frames[best], other)).toBeGreaterThan(differences[best] + 3);
      }
      expect(best).toBeGreaterThanOrEqual(previous);
      previous = best;
    }
  }, 180_000);
});

describe('a device that goes away mid-recording', () => {
  it('leaves a complete, playable file that ends where the device went', async () => {
    const h = await startRestHarness();
    try {
      const started = await call(h.url, 'POST', `/devices/${DEVICE}/recording/start`, { body: { fps: 10 } });
      expect(started.status).toBe(201);
      await eventually(async () => ((await call(h.url, 'GET', '/recordings')).body.recordings as { seconds: number }[])[0]?.seconds >= 1, {
        timeoutMs: 30_000,
        what: 'a second of video',
      });
      // The phone (its automation server and its screen stream) goes away.
      await h.runtime.embedded?.close();
      await eventually(async () => ((await call(h.url, 'GET', '/recordings')).body.recordings as { recording: boolean }[])[0]?.recording === false, {
        timeoutMs: 30_000,
        what: 'the recording to end',
      });
      const stopped = await call(h.url, 'POST', `/devices/${DEVICE}/recording/stop`, {});
      expect(stopped.body).toMatchObject({ id: started.body.id, endedBy: 'device_gone' });
      const { path: local } = await h.runtime.recordings.recordingFile(String(started.body.id));
      const facts = readMp4Facts(readFileSync(local));
      expect(facts).toMatchObject({ codec: 'avc1', frames: stopped.body.frames, moovFirst: true });
      expect(facts.frames).toBeGreaterThanOrEqual(10);
      expect((await decodeMp4Frames(local)).frames).toHaveLength(facts.frames);
    } finally {
      await h.close();
    }
  }, 90_000);
});

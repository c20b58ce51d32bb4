import sharp from 'sharp';
import { decodeMp4Frames, meanDifference, readMp4Facts } from '@apex/recording/testing';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

type Link = { id: string; url: string };

/**
 * `record: true` on run_flow / start_task: the task records the device while it runs, through the runtime's one
 * recording service. Every recorded task links its MP4 (`recording`); a failed one names it in its error too.
 * The embedded virtual iPhone, over REST.
 */
describe('a task that asks to be recorded', () => {
  let h: RestHarness;
  beforeAll(async () => {
    h = await startRestHarness();
  }, 60_000);
  afterAll(() => h.close(), 60_000);

  const recordingCount = async () => (await call(h.url, 'GET', '/recordings')).body['total'] as number;

  it('a failing flow with record: true leaves a playable MP4 named in its error, showing the screen it failed on', async () => {
    const yaml = 'name: Missing button\napp: Camera\nsteps:\n  - tap: Take Photo\n';
    const started = await call(h.url, 'POST', '/flows/run', { body: { yaml, device: DEVICE, record: true } });
    expect(started.status).toBe(202);
    const task = await h.runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect(task.status).toBe('failed');
    const named = task.error?.recording as Link;
    expect(named).toEqual({ id: expect.stringMatching(/^rec-[a-z0-9]{20}$/), url: `/recordings/${named.id}` });
    expect(task.recording).toMatchObject(named);
    // The failure's log excerpt stays beside it.
    expect(task.error?.logs?.length).toBeGreaterThan(0);

    const got = await call(h.url, 'GET', `/task/${task.id}`);
    expect(got.status).toBe(200);
    expect((got.body['error'] as { recording?: Link }).recording).toEqual(named);
    expect(got.body['recording']).toEqual({ ...named, seconds: task.recording?.seconds });

    // The link serves an H.264 MP4 that decodes; its last frame is the screen the task failed on.
    const video = await fetch(`${h.url}${named.url}`);
    expect([video.status, video.headers.get('content-type')]).toEqual([200, 'video/mp4']);
    const facts = readMp4Facts(Buffer.from(await video.arrayBuffer()));
    expect(facts).toMatchObject({ codec: 'avc1', moovFirst: true });
    expect(facts.frames).toBeGreaterThan(0);
    const small = { width: Math.round(facts.width / 8) * 2, height: Math.round(facts.height / 8) * 2 };
    const decoded = await decodeMp4Frames((await h.runtime.recordings.recordingFile(named.id)).path, small);
    expect(decoded.frames).toHaveLength(facts.frames);
    const step = task.error?.screenshotStep ?? task.steps.length;
    const failedOn = await sharp((await h.runtime.stepScreenshots.stepScreenshot(task.id, step)).data)
      .resize(small.width, small.height, { fit: 'fill', kernel: 'linear' })
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(meanDifference(decoded.frames[decoded.frames.length - 1], failedOn)).toBeLessThan(6);
  }, 120_000);

  it('record: false (and no record) leaves no recording and no link', async () => {
    const before = await recordingCount();
    const yaml = 'name: Missing button\napp: Camera\nsteps:\n  - tap: Take Photo\n';
    for (const body of [{ yaml, device: DEVICE, record: false }, { yaml, device: DEVICE }]) {
      const started = await call(h.url, 'POST', '/flows/run', { body });
      const task = await h.runtime.tasks.whenSettled(started.body['taskId'] as string);
      expect(task.status).toBe('failed');
      expect(task.error?.recording).toBeUndefined();
      expect(task.recording).toBeUndefined();
    }
    expect(await recordingCount()).toBe(before);
  }, 120_000);

  it('a task that succeeds keeps its recording linked from the task, not from an error; export_flow is unchanged', async () => {
    const before = await recordingCount();
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal: 'open Settings', device: DEVICE, planner: 'offline', record: true } });
    expect(started.status).toBe(202);
    const task = await h.runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect(task.status).toBe('succeeded');
    expect(task.error).toBeUndefined();
    expect(task.recording).toEqual({ id: expect.stringMatching(/^rec-/), url: `/recordings/${task.recording?.id}`, seconds: expect.any(Number) });
    expect(await recordingCount()).toBe(before + 1);
    const exported = await call(h.url, 'GET', `/task/${task.id}/flow`);
    expect(exported.status).toBe(200);
    expect(exported.body['flow']).toEqual({ name: 'From task: open Settings', steps: [{ press: 'home' }, { tap: 'Settings' }] });
    expect(JSON.stringify(exported.body)).not.toMatch(/rec-|\/recordings/);
  }, 120_000);

  it('record is a boolean: anything else is invalid_argument and starts nothing', async () => {
    const before = await recordingCount();
    const refused = await call(h.url, 'POST', '/agent/task', { body: { goal: 'open Settings', device: DEVICE, record: 'yes' } });
    expect(refused.status).toBe(400);
    expect(refused.body['code']).toBe('invalid_argument');
    expect(await recordingCount()).toBe(before);
  });
});

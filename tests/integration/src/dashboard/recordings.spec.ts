/// <reference lib="dom" />
import AxeBuilder from '@axe-core/playwright';
import { eventually } from '@apex/testing';
import type { Page } from 'playwright-core';
import { call, DEVICE } from '../rest/harness';
import { startDashboard, WAIT, type DashboardRig } from './page-kit';

jest.setTimeout(180_000);

/**
 * The video's duration once the browser has decoded a frame of it (readyState HAVE_CURRENT_DATA, no media error;
 * 0 before). The browser seeks to the middle, so a frame past the first is decoded too.
 */
const videoDuration = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((video: HTMLVideoElement) => {
    if (video.error) throw new Error(`the browser cannot play the video: ${video.error.code} ${video.error.message}`);
    if (video.readyState < 1 || !Number.isFinite(video.duration)) return 0;
    if (video.currentTime === 0 && video.duration > 0.5) video.currentTime = video.duration / 2;
    return video.readyState >= 2 && !video.seeking && (video.currentTime > 0 || video.duration <= 0.5) ? video.duration : 0;
  });

/**
 * The dashboard's Recordings panel and a recorded task's page in headless Chromium, over the embedded virtual
 * iPhone: Record / Stop makes a recording that a <video> plays (the browser decodes its metadata); a failed
 * task started with record: true shows its log excerpt and its recording.
 */
describe('the dashboard Recordings panel and a failed task\'s evidence', () => {
  let rig: DashboardRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startDashboard();
    page = rig.page;
    await page.goto(`${rig.harness.url}/`);
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
  });
  afterAll(async () => rig?.close());

  it('Record, then Stop: the recording is listed and a <video> plays it', async () => {
    const button = page.getByTestId('record-screen');
    await button.click();
    await eventually(async () => (await button.getAttribute('aria-pressed')) === 'true', { ...WAIT, what: 'the Record button to show a recording in progress' });
    // A second of video, as the server counts it.
    await eventually(async () => ((await call(rig.harness.url, 'GET', '/recordings')).body['recordings'] as { seconds: number }[])[0]?.seconds >= 1, {
      ...WAIT,
      what: 'a second of video',
    });
    await button.click();
    await page.getByTestId('recording-video').waitFor({ timeout: WAIT.timeoutMs });
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    const duration = await eventually(() => videoDuration(page, 'recording-video'), { ...WAIT, what: 'the video to load its metadata' });
    expect(duration).toBeGreaterThan(0);
    const listed = (await call(rig.harness.url, 'GET', '/recordings')).body['recordings'] as { id: string; seconds: number }[];
    expect(listed).toHaveLength(1);
    expect(duration).toBeCloseTo(listed[0].seconds, 0);
    await eventually(async () => (await page.getByTestId('recording-list').getByRole('button').count()) === 1, { ...WAIT, what: 'the recording in the list' });
  });

  it('a failed task started with record: true shows its log excerpt and its recording', async () => {
    const yaml = 'name: Missing button\napp: Camera\nsteps:\n  - tap: Take Photo\n';
    const started = await call(rig.harness.url, 'POST', '/flows/run', { body: { yaml, device: DEVICE, record: true } });
    const task = await rig.harness.runtime.tasks.whenSettled(started.body['taskId'] as string);
    expect(task.status).toBe('failed');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByTestId('task-history').getByRole('button', { name: /Missing button/ }).click();
    await page.getByTestId('task-logs').waitFor({ timeout: WAIT.timeoutMs });
    expect(await page.getByTestId('task-logs').innerText()).toMatch(/app<com\.apple\.camera>:\d+\] Launch succeeded/);
    await page.getByTestId('task-recording').waitFor({ timeout: WAIT.timeoutMs });
    const duration = await eventually(() => videoDuration(page, 'task-recording'), { ...WAIT, what: "the task's video to load its metadata" });
    expect(duration).toBeGreaterThan(0);

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(rig.pageErrors).toEqual([]);
    expect(rig.cspViolations).toEqual([]);
  });
});

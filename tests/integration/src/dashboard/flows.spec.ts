/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { eventually } from '@apex/testing';
import type { Page } from 'playwright-core';
import { SETTINGS_BUNDLE_ID, SPRINGBOARD_BUNDLE_ID } from '@apex/virtual-device';
import { call, DEVICE_PATH } from '../rest/harness';
import { clickOnScreen, foregroundApp, nodeLabelled, startDashboard, WAIT, type DashboardRig, type Node } from './page-kit';

jest.setTimeout(180_000);

const SETTINGS = SETTINGS_BUNDLE_ID;
const HOME = SPRINGBOARD_BUNDLE_ID;

/**
 * Flows from the page: a finished task saved as a flow file and replayed (GET /task/{id}/flow, POST /flows/run),
 * and the recorder that turns what a person does by hand into a flow. Results checked on the phone over REST.
 */
describe('the dashboard saves, records and replays flows', () => {
  let rig: DashboardRig;
  let page: Page;
  const rest = (method: string, path: string, body?: unknown) => call(rig.harness.url, method, path, { body });

  /** Settings closed (its navigation starts over) and the home screen in front, both over REST. */
  async function fromHome(): Promise<void> {
    await rest('POST', `${DEVICE_PATH}/terminate`, { appId: SETTINGS });
    await rest('POST', `${DEVICE_PATH}/press-button`, { button: 'home' });
    await eventually(async () => (await foregroundApp(rig.harness)) === HOME, { ...WAIT, what: 'the home screen' });
  }
  const taskStatus = async () => (await page.getByTestId('task-status').innerText()).toLowerCase();
  const onAbout = async () => (await foregroundApp(rig.harness)) === SETTINGS && (await nodeLabelled(rig.harness, 'iOS Version')) !== undefined;

  /** Clicks the element once the page's own tree shows it (the recorder names what the page saw). */
  async function clickWhenSeen(label: string, role?: string): Promise<void> {
    const seen = page.getByTestId('tree').locator(`[data-label="${label}"]`).filter({ hasText: role ?? label });
    await eventually(async () => (await seen.count()) > 0, { ...WAIT, what: `${label} in the page's tree` });
    const node = (await eventually(() => nodeLabelled(rig.harness, label, role), { ...WAIT, what: `${label} on the phone` })) as Node;
    await clickOnScreen(page, rig.harness, node.center);
  }

  beforeAll(async () => {
    rig = await startDashboard();
    page = rig.page;
    await page.goto(`${rig.harness.url}/`);
    await page.getByTestId('screen').and(page.locator('img')).waitFor();
  });
  afterAll(async () => rig?.close());

  it("saves a finished task as the server's flow file (a .yaml download) and runs it again from the page", async () => {
    await page.getByTestId('goal-input').fill('open Settings, tap General then tap About');
    await page.getByTestId('start-task').click();
    await eventually(async () => (await taskStatus()) === 'succeeded', { ...WAIT, what: 'the task to succeed' });
    const tasks = (await rest('GET', '/tasks')).body.tasks as { id: string; goal: string }[];
    const taskId = tasks.find((t) => t.goal === 'open Settings, tap General then tap About')?.id;
    const exported = (await rest('GET', `/task/${taskId}/flow`)).body as { yaml: string };

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-flow').click()]);
    expect(download.suggestedFilename()).toMatch(/^from-task-open-settings-tap-general-then-tap-about\.yaml$/);
    const saved = readFileSync((await download.path()) as string, 'utf8');
    expect(saved).toBe(exported.yaml);
    expect(saved).toMatch(/tap: About/);

    await fromHome();
    await page.getByTestId('run-flow').click();
    // The Tasks panel follows the new flow task to its end; the phone ends on About.
    await eventually(async () => /Run flow "From task: open Settings/.test(await page.locator('.task-view').innerText()) && (await taskStatus()) === 'succeeded', { ...WAIT, what: 'the flow task to succeed' });
    expect(await onAbout()).toBe(true);
  });

  it('records taps by hand as flow steps named by what a person reads, shown live, saved and replayed', async () => {
    await fromHome();
    await page.getByTestId('record').click();
    await clickWhenSeen('Settings', 'icon');
    await eventually(async () => (await foregroundApp(rig.harness)) === SETTINGS, { ...WAIT, what: 'Settings in front' });
    await clickWhenSeen('General');
    await eventually(async () => (await nodeLabelled(rig.harness, 'About')) !== undefined, { ...WAIT, what: 'the General screen' });
    await clickWhenSeen('About');
    await eventually(onAbout, { ...WAIT, what: 'the About screen' });
    const recording = page.getByTestId('recording');
    await eventually(async () => /tap: About/.test(await recording.innerText()), { ...WAIT, what: 'the last step in the live YAML' });
    await page.getByTestId('record').click();
    const yaml = await recording.innerText();
    expect(yaml.match(/^ {2}- .*/gm)).toEqual(['  - tap: Settings', '  - tap: General', '  - tap: About']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-recording').click()]);
    expect(download.suggestedFilename()).toMatch(/\.yaml$/);
    expect(readFileSync((await download.path()) as string, 'utf8').trim()).toBe(yaml.trim());

    await fromHome();
    await page.getByTestId('run-recording').click();
    await eventually(async () => /Run flow "Recorded in the dashboard"/.test(await page.locator('.task-view').innerText()) && (await taskStatus()) === 'succeeded', {
      ...WAIT,
      what: 'the recorded flow to succeed',
    });
    expect(await onAbout()).toBe(true);
  });

  it('broke no rule of its Content-Security-Policy and threw no error', () => {
    expect(rig.cspViolations).toEqual([]);
    expect(rig.pageErrors).toEqual([]);
  });
});

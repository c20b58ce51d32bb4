import { endStateProblems, phoneEndState, taskProblems, type GoalExpectation, type SettledTask } from '@apex/tasks/testing';
import path from 'node:path';
import { sampleBuildsIn, SAMPLE_ID } from '../apps/sample-builds';
import { call, DEVICE, startRestHarness, type RestHarness } from '../rest/harness';

const FINAL = ['succeeded', 'failed', 'cancelled'];
const HOME = 'com.apple.springboard';

/**
 * Issue 38's intent families through REST as a client meets them: POST /agent/task with no model configured
 * (the offline planner), GET /task/{id} over real HTTP until it ends, then the virtual iPhone's own end state.
 */
describe('offline planner families over REST', () => {
  let h: RestHarness;

  beforeEach(async () => {
    h = await startRestHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  async function run(goal: string): Promise<Record<string, unknown>> {
    const started = await call(h.url, 'POST', '/agent/task', { body: { goal, device: DEVICE } });
    expect(started.status).toBe(202);
    const taskId = started.body['taskId'] as string;
    let body: Record<string, unknown> = {};
    for (let i = 0; i < 600 && !FINAL.includes(String(body['status'])); i++) {
      const answer = await call(h.url, 'GET', `/task/${taskId}`);
      expect(answer.status).toBe(200);
      body = answer.body;
      if (!FINAL.includes(String(body['status']))) await new Promise((r) => setTimeout(r, 100));
    }
    return body;
  }

  function phone() {
    const embedded = h.runtime.embedded;
    if (!embedded) throw new Error('no embedded phone');
    return embedded.phone;
  }

  it.each<[string, string, GoalExpectation]>([
    ['device controls', 'open Safari and rotate to landscape', { status: 'succeeded', appId: 'com.apple.mobilesafari', orientation: 'landscape' }],
    ['device controls', 'turn on dark mode', { status: 'succeeded', appearance: 'dark' }],
    ['open URL', 'in Safari go to apex.example/docs', { status: 'succeeded', appId: 'com.apple.mobilesafari', typed: 'https://apex.example/docs' }],
    ['close an app', 'open Notes and close it', { status: 'succeeded', appId: HOME }],
    ['long press', 'long press the Maps icon', { status: 'succeeded', appId: HOME, visibleText: ['Remove App'] }],
    ['tab', 'open the timer in Clock', { status: 'succeeded', appId: 'com.apple.mobiletimer', selected: ['Timers'] }],
    ["an item's control", 'check off call the dentist', { status: 'succeeded', appId: 'com.apple.reminders', selected: ['Call the dentist'], notSelected: ['Buy milk'] }],
    ['messages', "text Ada 'see you at six'", { status: 'succeeded', appId: 'com.apple.MobileSMS', sent: 'see you at six' }],
    ['search field', 'search Maps for coffee', { status: 'succeeded', appId: 'com.apple.Maps', typed: 'coffee' }],
    ['constraint', 'turn Wi-Fi off but leave Bluetooth on', { status: 'succeeded', switches: { 'Wi-Fi': false, Bluetooth: true, 'Airplane Mode': false } }],
    ['refusal', 'send $20 to Ada', { status: 'failed', reason: 'infeasible', untouched: true, appId: HOME }],
  ])('%s: %s', async (_family, goal, wanted) => {
    const task = await run(goal);
    expect(taskProblems(task as unknown as SettledTask, wanted)).toEqual([]);
    expect(endStateProblems(phoneEndState(phone()), wanted)).toEqual([]);
  }, 120_000);

  it('keeps what a constraint names and says so in the result', async () => {
    const task = await run('turn Wi-Fi off but leave Bluetooth on');
    expect(task['result']).toMatch(/Left Bluetooth on, untouched/);
  }, 120_000);

  it('answers a question in the result and a structured answer field, touching nothing', async () => {
    const task = await run('what iOS version is this?');
    expect(task).toMatchObject({ status: 'succeeded', answer: { subject: 'iOS version', value: '17.5', source: 'device' } });
    expect(task['result']).toBe('The iOS version is 17.5.');
    expect(task['steps']).toEqual([]);
    expect(phone().activeApp().bundleId).toBe(HOME);
  }, 120_000);

  it('answers a question read from the screen: the count the Reminders app shows', async () => {
    const task = await run('how many reminders are left?');
    expect(task).toMatchObject({ status: 'succeeded', answer: { value: 5, source: 'screen' } });
    // The number is the phone's own: one reminder marked done makes it 4.
    const again = await run('mark Buy milk as done, then how many reminders are left?');
    expect(again).toMatchObject({ status: 'succeeded', answer: { value: 4 } });
  }, 120_000);

  it("runs the developer's loop in plain words: install, grant, open, ask, reset; the phone's own apps are not reset", async () => {
    const { ipa } = await sampleBuildsIn(path.join(h.runtime.dataDir, 'builds'));
    const loop = await run(`install ${ipa}, then grant it location access, then open it`);
    expect(loop).toMatchObject({ status: 'succeeded' });
    expect(loop['result']).toMatch(/Installed Where Am I \(dev\.apex\.WhereAmI\); Granted Where Am I location access/);
    expect(endStateProblems(phoneEndState(phone()), { status: 'succeeded', appId: SAMPLE_ID, noAlert: true, permissions: { [SAMPLE_ID]: { location: 'granted' } } })).toEqual([]);
    expect(await run('is Where Am I running?')).toMatchObject({ status: 'succeeded', answer: { subject: 'Where Am I running', value: true, source: 'device' }, steps: [] });
    expect(await run('reset Where Am I')).toMatchObject({ status: 'succeeded' });
    expect(endStateProblems(phoneEndState(phone()), { status: 'succeeded', appId: HOME, apps: { [SAMPLE_ID]: 'notRunning' }, permissions: { [SAMPLE_ID]: { location: 'unset' } } })).toEqual([]);
    // Photos running, so the device names it: known as one of the phone's own apps, refused before any step.
    phone().launchApp('com.apple.mobileslideshow');
    const refused = await run('reset Photos');
    expect(refused).toMatchObject({ status: 'failed', error: { reason: 'infeasible' }, steps: [] });
    expect((refused['error'] as { message: string }).message).toMatch(/Photos is one of the phone's own apps/);
    expect(endStateProblems(phoneEndState(phone()), { status: 'failed', appId: 'com.apple.mobileslideshow', visibleText: ['12 Photos'] })).toEqual([]);
  }, 120_000);

  it('refuses an emergency call with a reason and takes no step', async () => {
    const task = await run('please call 911');
    expect(task).toMatchObject({ status: 'failed', error: { reason: 'infeasible' }, steps: [] });
    expect((task['error'] as { message: string }).message).toMatch(/emergency numbers/);
    expect(phone().activeApp().bundleId).toBe(HOME);
  }, 120_000);
});

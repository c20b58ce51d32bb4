import { OfflinePlanner } from '../planners/offline-planner';
import { targetOf } from '../flows/step-target';
import { exportFlow } from '../flows/export-flow';
import type { TaskStep } from '../model/task';
import { ScriptedPhone, scriptedDevices } from '../testing/scripted-devices';
import { runAgent, type AgentOptions } from './agent-loop';
import { observationOf } from './observation';
import type { Decision, Planner } from './planner';

/** Runs one goal on a scripted phone; the steps it logged and what the phone was asked. */
async function run(phone: ScriptedPhone, goal: string, extra: Partial<AgentOptions> = {}, planner: Planner = new OfflinePlanner()) {
  const devices = scriptedDevices({ phone });
  const steps: TaskStep[] = [];
  const outcome = await runAgent({
    task: { id: 't1', goal, maxSteps: 10, timeoutMs: 10_000 },
    planner,
    device: {
      deviceId: 'phone',
      run: (operation, args, options) => devices.run('phone', operation, args, options),
      isReadOnly: (operation) => devices.isReadOnly(operation),
      observes: (operation) => devices.observes(operation),
    },
    cancelSignal: new AbortController().signal,
    onStep: (step) => {
      steps.push(step);
    },
    stepScreenshots: false,
    settlePollMs: 1,
    ...extra,
  });
  const asked = (operation: string) => phone.log.filter((entry) => entry.operation === operation);
  return { outcome, steps, asked };
}

/** A planner that answers the same decision each time it is asked (until `done` says so). */
function repeating(decide: () => Decision): Planner {
  return { name: 'repeat', begin: () => ({ decide: async () => decide(), usage: () => undefined }) };
}

describe('the agent loop with refs and observe', () => {
  it('takes the next observation from the action (observe "describe"): fewer describe_screen calls than the old way', async () => {
    const now = await run(new ScriptedPhone(), 'turn off Wi-Fi');
    const before = await run(new ScriptedPhone(), 'turn off Wi-Fi', { observeFromActions: false, actByRef: false });
    for (const r of [now, before]) {
      expect(r.outcome.status).toBe('succeeded');
      expect(r.steps.map((s) => s.action.operation)).toEqual(['launch_app', 'tap']);
    }
    // The new way: one look at the start; each action answers the settled screen after it.
    expect(now.asked('describe_screen')).toHaveLength(1);
    expect(now.asked('launch_app').map((e) => e.args['observe'])).toEqual(['describe']);
    expect(now.asked('tap').map((e) => e.args['observe'])).toEqual(['describe']);
    // The old way: a look at the start, then at least two per action (until two agree).
    expect(before.asked('describe_screen').length).toBeGreaterThanOrEqual(1 + 2 * 2);
    expect(before.asked('tap').map((e) => e.args['observe'])).toEqual([undefined]);
  });

  it('acts by ref and logs the ref with a text target; the step log keeps the planner\'s own arguments', async () => {
    const now = await run(new ScriptedPhone(), 'turn off Wi-Fi');
    const tap = now.steps[1];
    expect(tap?.action).toEqual({ operation: 'tap', arguments: { ref: 'e2' } });
    expect(tap?.target).toEqual({ text: 'Wi-Fi' });
    // The old way taps the centre, and gets the same target.
    const before = await run(new ScriptedPhone(), 'turn off Wi-Fi', { observeFromActions: false, actByRef: false });
    expect(before.steps[1]?.action).toEqual({ operation: 'tap', arguments: { x: 340, y: 200 } });
    expect(before.steps[1]?.target).toEqual({ text: 'Wi-Fi' });
    // An exported flow names the element, never the ref.
    const flow = exportFlow({ id: 't', goal: 'g', status: 'succeeded', planner: 'offline', steps: now.steps } as never).flow;
    expect(flow.steps).toEqual([{ launch: 'com.example.settings' }, { tap: 'Wi-Fi' }]);
  });

  it('falls back to its own observations when the reported screen does not show what was expected yet', async () => {
    const phone = new ScriptedPhone();
    phone.lagObservations = 2;
    const r = await run(phone, 'turn off Wi-Fi');
    expect(r.outcome.status).toBe('succeeded');
    expect(phone.state.switches['Wi-Fi']).toBe(false);
    // The launch reported the old screen (no Settings yet): the loop looked again until Settings showed.
    expect(r.asked('describe_screen').length).toBeGreaterThan(1);
    expect(r.steps[0]?.outcome.waitedFor).toBe('Airplane Mode');
  });

  it('counts the same ref on the same screen as the same action, and a tap at its centre too', async () => {
    const phone = new ScriptedPhone();
    // Swipes change nothing on the scripted phone: the home screen stays as it is.
    let turn = 0;
    const planner = repeating(() => (turn++ % 2 === 0 ? { kind: 'act', action: { operation: 'swipe', arguments: { ref: 'e1', direction: 'up' } } } : { kind: 'act', action: { operation: 'swipe', arguments: { x: 60, y: 100, direction: 'up', observe: 'none' } } }));
    const r = await run(phone, 'anything', {}, planner);
    expect(r.outcome).toMatchObject({ status: 'failed', error: { reason: 'loop' } });
    // Two runs (ref, then the same element by its centre), then refused: the third choice is the same action.
    expect(r.asked('swipe')).toHaveLength(2);
  });

  it('targetOf resolves a ref on the screen the action was chosen on; a ref it does not list gives no target', () => {
    const screen = observationOf(new ScriptedPhone().describe());
    expect(targetOf({ operation: 'tap', arguments: { ref: 'e2' } }, screen)).toEqual({ text: 'Notes' });
    expect(targetOf({ operation: 'tap', arguments: { ref: 'e99' } }, screen)).toBeUndefined();
    expect(targetOf({ operation: 'swipe', arguments: { ref: 'e1', direction: 'up' } }, screen)).toBeUndefined();
    const flow = exportFlow({ id: 't', goal: 'g', status: 'succeeded', planner: 'x', steps: [{ index: 0, observation: '', action: { operation: 'tap', arguments: { ref: 'e99' } }, outcome: { status: 'ok', detail: '' }, durationMs: 0 }] } as never);
    expect(flow.flow.steps).toEqual([]);
    expect(flow.skipped).toEqual([expect.stringMatching(/ref/)]);
  });
});

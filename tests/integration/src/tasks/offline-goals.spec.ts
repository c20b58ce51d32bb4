import { runOperation } from '@apex/capability';
import { endStateProblems, OFFLINE_GOAL_SUITE, taskProblems } from '@apex/tasks/testing';
import { prepareGoal, startTaskStack } from './support';

/**
 * The offline planner on the virtual iPhone, driven through the real WDA driver over HTTP: each goal of the
 * suite on a fresh phone, checked against the phone's real end state (its own accessibility snapshot).
 */
describe('offline planner goals on the virtual iPhone', () => {
  it.each(OFFLINE_GOAL_SUITE.map((g) => [g.goal, g] as const))('%s', async (_goal, suiteGoal) => {
    const stack = await startTaskStack();
    try {
      const { expect: wanted } = suiteGoal;
      const goal = await prepareGoal(stack, suiteGoal);
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal })).id);
      const detail = `${task.status} ${JSON.stringify(task.error ?? task.result)} steps: ${task.steps.map((s) => `${s.action.operation}${JSON.stringify(s.action.arguments)}→${s.outcome.status}`).join(', ')}`;
      expect({ status: task.status, reason: task.error?.reason, detail }).toEqual({ status: wanted.status, reason: wanted.reason, detail });
      expect(taskProblems(task, wanted)).toEqual([]);
      if (wanted.status === 'succeeded') {
        expect(task.result).toBeTruthy();
        // A question read from the device's status takes no step on the screen.
        if (!wanted.answer) expect(task.steps.length).toBeGreaterThan(0);
        expect(task.steps.every((s) => s.observation.length > 0 && s.durationMs >= 0)).toBe(true);
      }
      expect(endStateProblems(stack.endState(), wanted)).toEqual([]);
    } finally {
      await stack.close();
    }
  }, 120_000);

  it('finds an app by name from its home-screen icon and opens it through the catalog', async () => {
    const stack = await startTaskStack();
    try {
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal: 'launch Settings then turn on airplane mode then go home' })).id);
      expect(task.status).toBe('succeeded');
      expect(stack.endState().appId).toBe('com.apple.springboard');
      // The switch is really on: read it back through the operations catalog too.
      stack.iphone.phone.launchApp('com.apple.Preferences');
      const tree = await runOperation(stack.context, 'describe_screen', { includeOcrText: false });
      const airplane = (tree.output['elements'] as Array<{ role: string; label?: string; value?: string }>).find(
        (e) => e.role === 'switch' && e.label === 'Airplane Mode',
      );
      expect(airplane?.value).toMatch(/^(1|on)$/);
    } finally {
      await stack.close();
    }
  }, 120_000);
});

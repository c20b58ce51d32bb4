import { exportFlow, parseFlowObject } from '@apex/tasks';
import { endStateProblems } from '@apex/tasks/testing';
import { startTaskStack } from './support';

const ABOUT = { status: 'succeeded' as const, appId: 'com.apple.Preferences', visibleText: ['About', 'Model Name', 'Serial Number'] };

/**
 * Issue 16 point 6 on the virtual iPhone through the real WDA driver: the offline planner acts on Settings by
 * ref, each action answers the settled screen after it, and the step log keeps the ref beside a text target
 * (what an exported flow names, since refs do not outlive a session).
 */
describe('an agent task acts by ref on the virtual iPhone', () => {
  it('taps General and About by ref, logs ref + text target, and its exported flow replays by text', async () => {
    const stack = await startTaskStack();
    try {
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal: 'open Settings, tap General then tap About' })).id);
      expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
      expect(endStateProblems(stack.endState(), ABOUT)).toEqual([]);
      const taps = task.steps.filter((s) => s.action.operation === 'tap');
      // Settings by its home-screen icon, then its rows.
      expect(taps.map((s) => s.target)).toEqual([{ text: 'Settings' }, { text: 'General' }, { text: 'About' }]);
      for (const tap of taps) {
        expect(Object.keys(tap.action.arguments)).toEqual(['ref']);
        expect(tap.action.arguments['ref']).toMatch(/^e\d+$/);
      }
      // Each step's observation is the screen it was decided on: the home screen, Settings, then General.
      expect(taps[1]?.observation).toMatch(/General/);
      expect(taps[2]?.observation).toMatch(/About/);

      const flow = exportFlow(task);
      expect(JSON.stringify(flow.flow)).not.toMatch(/"ref"|"e\d+"/);
      expect(flow.flow.steps).toEqual([{ tap: 'Settings' }, { tap: 'General' }, { tap: 'About' }]);
      stack.iphone.phone.pressButton('home');
      const replayed = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal: 'replay', flow: await parseFlowObject(flow.flow) })).id);
      expect({ status: replayed.status, error: replayed.error }).toEqual({ status: 'succeeded', error: undefined });
      expect(endStateProblems(stack.endState(), ABOUT)).toEqual([]);
    } finally {
      await stack.close();
    }
  }, 120_000);

  it('the old way (coordinates, an observation of its own) still reaches the goal with the same targets', async () => {
    const stack = await startTaskStack({ service: { agent: { observeFromActions: false, actByRef: false } } });
    try {
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal: 'open Settings, tap General then tap About' })).id);
      expect(task.status).toBe('succeeded');
      const taps = task.steps.filter((s) => s.action.operation === 'tap');
      expect(taps.map((s) => Object.keys(s.action.arguments).sort())).toEqual([['x', 'y'], ['x', 'y'], ['x', 'y']]);
      expect(taps.map((s) => s.target)).toEqual([{ text: 'Settings' }, { text: 'General' }, { text: 'About' }]);
      expect(endStateProblems(stack.endState(), ABOUT)).toEqual([]);
    } finally {
      await stack.close();
    }
  }, 120_000);
});

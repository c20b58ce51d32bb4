import { endStateProblems, ISSUE_21_GOALS } from '@apex/tasks/testing';
import { startTaskStack } from './support';

/** The goals of issue 21 on the virtual iPhone: the right end state, and a step log that says what was chosen. */
describe('offline planner: the goals of issue 21', () => {
  const run = async (goal: string) => {
    const stack = await startTaskStack();
    try {
      const task = await stack.tasks.whenSettled((await stack.tasks.start({ deviceId: stack.device, goal })).id);
      return { task, endState: stack.endState() };
    } finally {
      await stack.close();
    }
  };

  it.each(ISSUE_21_GOALS.map((g) => [g.goal, g.expect] as const))('%s', async (goal, wanted) => {
    const { task, endState } = await run(goal);
    expect({ status: task.status, error: task.error }).toEqual({ status: 'succeeded', error: undefined });
    expect(endStateProblems(endState, wanted)).toEqual([]);
  }, 120_000);

  it('says which answer it gave the location alert, and why, in the step log and the result', async () => {
    const { task } = await run('Please open Maps');
    expect(task.result).toContain(`with "Don't Allow" (the least permissive choice that lets the goal continue)`);
    const answering = task.steps.find((step) => step.outcome.detail.startsWith('Answered the alert'));
    expect(answering?.outcome.detail).toContain(`with "Don't Allow" (the least permissive choice that lets the goal continue)`);
    expect(answering?.action.operation).toBe('tap');
  }, 120_000);

  it('names both when two labels are equally close, without tapping either', async () => {
    const { task, endState } = await run('open Photos and tap Photo');
    expect(task.status).toBe('failed');
    expect(task.error?.message).toMatch(/"Photo 1", "Photo 2".* say which/);
    expect(endStateProblems(endState, { status: 'failed', visibleText: ['12 Photos'] })).toEqual([]);
  }, 120_000);
});

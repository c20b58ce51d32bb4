import { ApexError } from '@apex/errors';
import { runOperation } from '@apex/capability';
import { TASK_OPERATIONS, type TaskOperationContext } from '@apex/tasks';
import { endStateProblems } from '@apex/tasks/testing';
import { startTaskStack, until, type TaskStack } from './support';

describe('tasks on a busy virtual iPhone', () => {
  let stack: TaskStack;
  let ctx: TaskOperationContext;
  beforeEach(async () => {
    stack = await startTaskStack();
    ctx = { ...stack.context, tasks: stack.tasks };
  });
  afterEach(async () => {
    stack.iphone.faults.reset();
    await stack.close();
  });

  const task = (name: string, input: Record<string, unknown>) => runOperation(ctx, name, input, TASK_OPERATIONS);

  it('queues a second task on a busy device and runs it after the first, in order', async () => {
    stack.iphone.faults.setLatency(150);
    const first = (await task('start_task', { goal: 'open Settings then turn on Airplane Mode' })).output;
    const second = (await task('start_task', { goal: 'open Notes' })).output;
    expect(first).toEqual({ taskId: expect.any(String), status: 'queued' });
    await until(async () => (await stack.tasks.get(first['taskId'] as string)).status === 'running', 'the first task to run');
    expect((await task('get_task', { taskId: second['taskId'] })).output['status']).toBe('queued');
    const listed = (await task('list_tasks', { status: 'queued' })).output['tasks'] as Array<{ id: string }>;
    expect(listed.map((t) => t.id)).toEqual([second['taskId']]);

    const a = await stack.tasks.whenSettled(first['taskId'] as string);
    const b = await stack.tasks.whenSettled(second['taskId'] as string);
    expect([a.status, b.status]).toEqual(['succeeded', 'succeeded']);
    expect(Date.parse(b.startedAt as string)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt as string));
    stack.iphone.faults.reset();
    // Both really happened, in that order: Notes is in front, and Airplane Mode stayed on.
    expect(stack.endState().appId).toBe('com.apple.mobilenotes');
    stack.iphone.phone.launchApp('com.apple.Preferences');
    expect(endStateProblems(stack.endState(), { status: 'succeeded', switches: { 'Airplane Mode': true } })).toEqual([]);
  }, 120_000);

  it('cancels a running task at its next step boundary and records the cancel', async () => {
    stack.iphone.faults.setLatency(300);
    const { taskId } = (await task('start_task', { goal: 'open Settings, tap General, tap About, go back, go back, turn on Airplane Mode' })).output as { taskId: string };
    await until(async () => (await stack.tasks.get(taskId)).steps.length >= 1, 'the first step');
    const answer = (await task('cancel_task', { taskId })).output;
    expect(answer).toMatchObject({ taskId, cancelRequested: true });
    const done = await stack.tasks.whenSettled(taskId);
    expect(done.status).toBe('cancelled');
    const last = done.steps[done.steps.length - 1];
    expect(last.action.operation).toBe('cancel_task');
    expect(last.outcome.status).toBe('cancelled');
    expect(done.steps.slice(0, -1).every((s) => s.outcome.status === 'ok')).toBe(true);
    expect(done.steps.length).toBeLessThan(7);
    stack.iphone.faults.reset();
    // The goal's last action never ran: Airplane Mode is still off (Settings restarted on its root page).
    stack.iphone.phone.terminateApp('com.apple.Preferences');
    stack.iphone.phone.launchApp('com.apple.Preferences');
    expect(endStateProblems(stack.endState(), { status: 'succeeded', switches: { 'Airplane Mode': false } })).toEqual([]);
    expect((await task('cancel_task', { taskId })).output).toEqual({ taskId, status: 'cancelled', cancelRequested: false });
  }, 120_000);

  it.each([
    ['an empty goal', { goal: '' }, 'invalid_argument'],
    ['a 10,000-character goal', { goal: 'tap '.repeat(2_500) }, 'invalid_argument'],
    ['an unknown device', { goal: 'go home', device: 'iphone-nope' }, 'device_not_found'],
    ['maxSteps 0', { goal: 'go home', maxSteps: 0 }, 'invalid_argument'],
    ['maxSteps 10^9', { goal: 'go home', maxSteps: 1e9 }, 'invalid_argument'],
    ['an unknown planner', { goal: 'go home', planner: 'magic' }, 'invalid_argument'],
    ['an unconfigured planner', { goal: 'go home', planner: 'openai' }, 'invalid_argument'],
  ])('start_task rejects %s and creates nothing', async (_what, input, code) => {
    const error = await task('start_task', input).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApexError);
    expect((error as ApexError).code).toBe(code);
    expect((error as ApexError).message.length).toBeLessThan(400);
    expect((await task('list_tasks', {})).output['tasks']).toEqual([]);
  });

  it('answers task_not_found for unknown ids', async () => {
    for (const name of ['get_task', 'cancel_task']) {
      await expect(task(name, { taskId: 'no-such-task' })).rejects.toMatchObject({ code: 'task_not_found' });
    }
  });
});

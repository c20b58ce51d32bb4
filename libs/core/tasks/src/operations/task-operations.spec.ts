import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApexError } from '@apex/errors';
import { DeviceHub } from '@apex/hub';
import { FakeDriver } from '@apex/hub/testing';
import { DEVICE_OPERATIONS, runOperation } from '@apex/capability';
import { Perception } from '@apex/perception';
import { PlannerRegistry } from '../planners/planner-registry';
import { catalogDevices, type TaskDevices } from '../service/task-devices';
import { TaskService } from '../service/task-service';
import { TASK_OPERATIONS, type TaskOperationContext } from './task-operations';

async function errorOf(promise: Promise<unknown>): Promise<ApexError> {
  try {
    await promise;
  } catch (error) {
    return error as ApexError;
  }
  throw new Error('expected a failure');
}

/** The task operations through the one pipeline, over a real hub: the pipeline resolves the device and checks ids, once. */
describe('task operations through the pipeline', () => {
  let dir: string;
  let hub: DeviceHub;
  let ctx: TaskOperationContext;
  let resolves: jest.SpyInstance;
  /** How many times the hub had resolved a device when the task's first step reached the device. */
  let resolvesAtFirstStep: number[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'apex-task-ops-'));
    hub = new DeviceHub({ backgroundProbes: false });
    hub.register({ id: 'phone-a', driver: new FakeDriver() });
    hub.register({ id: 'phone-b', driver: new FakeDriver() });
    resolves = jest.spyOn(hub, 'resolve');
    resolvesAtFirstStep = [];
    const base = { hub, perception: new Perception(hub) };
    const catalog = catalogDevices(base);
    const devices: TaskDevices = {
      ...catalog,
      run: (deviceId, operation, args, options) => {
        resolvesAtFirstStep.push(resolves.mock.calls.length);
        return catalog.run(deviceId, operation, args, options);
      },
    };
    const tasks = new TaskService({ dataDir: dir, devices, planners: new PlannerRegistry({}, DEVICE_OPERATIONS), agent: { settlePollMs: 1 } });
    ctx = { ...base, tasks };
  });
  afterEach(async () => {
    await ctx.tasks.close();
    await ctx.perception.close();
    await hub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['start_task', { device: 'phone-b', goal: 'go home' }],
    ['run_flow', { device: 'phone-b', yaml: 'name: home\nsteps:\n  - press: home\n' }],
  ])('%s resolves the device once, in the pipeline, before the task\'s first step', async (operation, input) => {
    const started = await runOperation(ctx, operation, input, TASK_OPERATIONS);
    const task = await ctx.tasks.whenSettled(String(started.output['taskId']));
    expect(task.deviceId).toBe('phone-b');
    expect(resolvesAtFirstStep.length).toBeGreaterThan(0);
    // The start's own resolution; every later one belongs to a step's operation.
    expect(resolvesAtFirstStep[0]).toBe(1);
    expect(resolves.mock.calls[0]).toEqual(['phone-b']);
  });

  it.each([
    ['an unknown device', { device: 'phone-z', goal: 'go home' }, 'device_not_found', /phone-z/],
    ['no device with several', { goal: 'go home' }, 'invalid_argument', /phone-a, phone-b/],
  ])('start_task refuses %s and creates nothing', async (_what, input, code, message) => {
    const error = await errorOf(runOperation(ctx, 'start_task', input, TASK_OPERATIONS));
    expect(error).toBeInstanceOf(ApexError);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(await ctx.tasks.list()).toEqual([]);
  });

  it.each([
    ['get_task', 'nope\u0007'],
    ['cancel_task', '\u001b[2J'],
    ['export_flow', '../../etc/passwd'],
  ])('%s refuses a malformed task id as invalid_argument', async (operation, taskId) => {
    const error = await errorOf(runOperation(ctx, operation, { taskId }, TASK_OPERATIONS));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).not.toContain(taskId);
  });

  it('answers task_not_found for a well-formed id no task has', async () => {
    for (const operation of ['get_task', 'cancel_task', 'export_flow']) {
      expect((await errorOf(runOperation(ctx, operation, { taskId: 'nope' }, TASK_OPERATIONS))).code).toBe('task_not_found');
    }
  });
});

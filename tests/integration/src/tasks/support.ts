import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOperation, type OperationContext } from '@apex/capability';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { createTaskService, type CreateTaskServiceOptions, type TaskService } from '@apex/tasks';
import { BUILDS_DIR, phoneEndState, type PhoneEndState, type SuiteGoal } from '@apex/tasks/testing';
import type { VirtualIPhone } from '@apex/virtual-device';
import { sampleBuildsIn, SAMPLE_ID } from '../apps/sample-builds';

export interface TaskStack {
  runtime: Runtime;
  context: OperationContext;
  tasks: TaskService;
  /** The id of the embedded virtual iPhone, the stack's one device (what the pipeline resolves an omitted device to). */
  device: string;
  /** The embedded virtual iPhone the runtime drives through its WDA driver over HTTP. */
  iphone: VirtualIPhone;
  dataDir: string;
  /** The phone's own view of its state (not through the driver). */
  endState(): PhoneEndState;
  close(): Promise<void>;
}

/** The runtime with its embedded virtual iPhone and a task service on a temp data dir. */
export async function startTaskStack(options: { env?: NodeJS.ProcessEnv; dataDir?: string; service?: Partial<CreateTaskServiceOptions> } = {}): Promise<TaskStack> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'apex-tasks-it-'));
  const env = options.env ?? {};
  const runtime = await createRuntime({ dataDir, env, logger: createLogger({ level: 'silent' }) });
  const context: OperationContext = { hub: runtime.hub, perception: runtime.perception, appRoots: runtime.appRoots };
  const tasks = createTaskService({ context, dataDir, env, ...options.service });
  const iphone = runtime.embedded as VirtualIPhone;
  return {
    runtime,
    context,
    tasks,
    device: runtime.hub.resolve(),
    iphone,
    dataDir,
    endState: () => phoneEndState(iphone.phone),
    async close() {
      await tasks.close();
      await runtime.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` holds (bounded). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A suite goal's starting point on the stack's phone: the sample builds copied into the data dir (inside the
 * allowed roots), installed, or running in front with its location granted (no prompt in the way), through
 * the catalog as a user would. Answers the goal's text with the builds folder in place of BUILDS_DIR.
 */
export async function prepareGoal(stack: TaskStack, { goal, given }: SuiteGoal): Promise<string> {
  if (!given) return goal;
  const dir = join(stack.dataDir, 'builds');
  const { app } = await sampleBuildsIn(dir);
  if (given !== 'sample-copied') await runOperation(stack.context, 'install_app', { path: app });
  if (given === 'sample-running') {
    await runOperation(stack.context, 'set_permission', { appId: SAMPLE_ID, permission: 'location', state: 'granted' });
    await runOperation(stack.context, 'launch_app', { appId: SAMPLE_ID });
  }
  return goal.split(BUILDS_DIR).join(dir);
}

/**
 * One test per held-out goal (issue 38). The goals the planner does not handle yet (`knownFailing`) run as
 * `it.failing`: they must still fail, so one that starts to pass shows up and moves to the passing side.
 */
export function eachHeldOutGoal<G extends { goal: string }>(goals: readonly G[], knownFailing: ReadonlySet<string>, body: (goal: string, g: G) => Promise<void>): void {
  const cases = goals.map((g) => [g.goal, g] as [string, G]);
  const passing = cases.filter(([goal]) => !knownFailing.has(goal));
  const failing = cases.filter(([goal]) => knownFailing.has(goal));
  if (passing.length > 0) it.each(passing)('%s', body, 120_000);
  if (failing.length > 0) it.failing.each(failing)('(not handled yet) %s', body, 120_000);
}

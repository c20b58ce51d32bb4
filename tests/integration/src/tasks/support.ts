import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OperationContext } from '@apex/capability';
import { createLogger, createRuntime, type Runtime } from '@apex/runtime';
import { createTaskService, type CreateTaskServiceOptions, type TaskService } from '@apex/tasks';
import { phoneEndState, type PhoneEndState } from '@apex/tasks/testing';
import type { VirtualIPhone } from '@apex/virtual-device';

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
  const context: OperationContext = { hub: runtime.hub, perception: runtime.perception };
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

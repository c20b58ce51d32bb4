/**
 * Run by restart.spec.ts as a separate process (node --import tsx): starts the runtime (embedded virtual
 * iPhone, slowed down) and a task service on the data dir it is given (with the task lease period given in
 * ms), queues tasks, reports progress on stdout as JSON lines, and waits to be killed with SIGKILL mid-task.
 */
import { createLogger, createRuntime, EMBEDDED_DEVICE_ID } from '@apex/runtime';
import { createTaskService } from '@apex/tasks';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  const leaseMs = Number(process.argv[3]);
  const runtime = await createRuntime({ dataDir, env: {}, logger: createLogger({ level: 'silent' }) });
  const lease = { leaseMs, renewMs: leaseMs / 4 };
  const tasks = createTaskService({ context: { hub: runtime.hub, perception: runtime.perception }, dataDir, env: {}, lease });
  const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

  const quick = (await tasks.start({ deviceId: EMBEDDED_DEVICE_ID, goal: 'open Settings' }));
  await tasks.whenSettled(quick.id);
  say({ event: 'finished', taskId: quick.id });

  runtime.embedded?.faults.setLatency(400);
  const slow = (await tasks.start({ deviceId: EMBEDDED_DEVICE_ID, goal: 'open Settings, tap General, tap About, go back, go back, go home, open Notes, go home' }));
  const waiting = (await tasks.start({ deviceId: EMBEDDED_DEVICE_ID, goal: 'turn on Airplane Mode' }));
  say({ event: 'queued', slow: slow.id, waiting: waiting.id });
  const timer = setInterval(async () => {
    const steps = (await tasks.get(slow.id)).steps.length;
    if (steps >= 2) {
      clearInterval(timer);
      say({ event: 'mid-task', taskId: slow.id, steps });
    }
  }, 20);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});

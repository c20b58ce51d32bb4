import { useEffect, useState } from 'preact/hooks';
import { ApiError, getJson, postJson, request } from '../api';
import { flowFileName, runFlow, saveText } from '../flow-file';
import { RecordingVideo } from './Recordings';
import { FINISHED, type DeviceStatus, type Task, type TaskStatus, type TaskStep } from '../types';

/** How often a running task's log is read again. */
const TASK_POLL_MS = 500;
const PLANNERS = ['offline', 'openai', 'anthropic'];
const STATUSES: TaskStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** The step screenshot route numbers steps from 1 (the step whose `index` is n − 1). */
export function stepScreenshotPath(taskId: string, step: TaskStep): string {
  return `/task/${encodeURIComponent(taskId)}/steps/${step.index + 1}/screenshot`;
}

/** A step's screenshot, fetched with the token (an <img src> could not send it). */
function StepShot({ taskId, step, compact }: { taskId: string; step: TaskStep; compact?: boolean }) {
  const [url, setUrl] = useState<string>();
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (!step.screenshotRef) return;
    const controller = new AbortController();
    let made: string | undefined;
    request('GET', stepScreenshotPath(taskId, step), undefined, controller.signal)
      .then((res) => res.blob())
      .then((blob) => setUrl((made = URL.createObjectURL(blob))))
      .catch(() => !controller.signal.aborted && setMissing(true));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [taskId, step.index, step.screenshotRef]);
  if (!step.screenshotRef || missing) return <span class="muted small shot-missing">no screenshot</span>;
  if (!url) return <span class="muted small shot-missing">loading…</span>;
  return <img class={compact ? 'film-shot' : 'step-shot'} data-testid="step-screenshot" src={url} alt={`Screen after step ${step.index + 1}`} />;
}

function actionText(step: TaskStep): string {
  if (!step.action) return '—';
  const args = step.action.arguments && Object.keys(step.action.arguments).length > 0 ? ` ${JSON.stringify(step.action.arguments)}` : '';
  return `${step.action.operation}${args}`;
}

function Timeline({ task }: { task: Task }) {
  const steps = task.steps ?? [];
  return (
    <ol class="timeline" aria-label="Steps" tabIndex={0}>
      {steps.map((step) => (
        <li key={step.index} class={`task-step outcome-${step.outcome?.status ?? 'none'}`} data-testid="task-step">
          <div class="step-head">
            <strong>Step {step.index + 1}</strong> <code>{actionText(step)}</code>
            <span class="muted small"> {step.durationMs !== undefined ? `${Math.round(step.durationMs)} ms` : ''}</span>
          </div>
          {step.observation && <p class="small observation">Saw: {step.observation}</p>}
          {step.outcome && (
            <p class="small">
              {step.outcome.status}
              {step.outcome.detail ? `: ${step.outcome.detail}` : ''}
            </p>
          )}
          <StepShot taskId={task.id} step={step} />
        </li>
      ))}
    </ol>
  );
}

/** A finished task's screenshots side by side. */
function Filmstrip({ task }: { task: Task }) {
  const steps = (task.steps ?? []).filter((s) => s.screenshotRef);
  if (steps.length === 0) return null;
  return (
    <div class="filmstrip" data-testid="filmstrip" role="region" aria-label="Filmstrip of the step screenshots" tabIndex={0}>
      {steps.map((step) => (
        <figure key={step.index}>
          <StepShot taskId={task.id} step={step} compact />
          <figcaption class="small">{step.index + 1}</figcaption>
        </figure>
      ))}
    </div>
  );
}

export interface TasksProps {
  devices: DeviceStatus[];
  device: string | undefined;
  /** A task started elsewhere on the page (the recorder's Run) to open here. */
  follow?: string;
  onError: (e: ApiError) => void;
}

export function Tasks({ devices, device, follow, onError }: TasksProps) {
  const [goal, setGoal] = useState('');
  const [planner, setPlanner] = useState('offline');
  const [maxSteps, setMaxSteps] = useState(10);
  const [taskId, setTaskId] = useState<string>();
  const [task, setTask] = useState<Task>();
  const [history, setHistory] = useState<Task[]>([]);
  const [filterStatus, setFilterStatus] = useState('');
  const [filterDevice, setFilterDevice] = useState('');

  const loadHistory = () => {
    const query = new URLSearchParams();
    if (filterStatus) query.set('status', filterStatus);
    if (filterDevice) query.set('device', filterDevice);
    const qs = query.toString();
    getJson<{ tasks: Task[] }>(`/tasks${qs ? `?${qs}` : ''}`)
      .then((answer) => setHistory(answer.tasks))
      .catch((error: ApiError) => onError(error));
  };
  useEffect(loadHistory, [filterStatus, filterDevice]);

  // The open task's log, read again while it runs.
  useEffect(() => {
    if (!taskId) return;
    let stopped = false;
    let timer = 0;
    const read = async () => {
      try {
        const latest = await getJson<Task>(`/task/${encodeURIComponent(taskId)}`);
        if (stopped) return;
        setTask(latest);
        if (FINISHED.includes(latest.status)) {
          loadHistory();
          return;
        }
      } catch (error) {
        if (stopped) return;
        onError(error as ApiError);
      }
      timer = window.setTimeout(read, TASK_POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [taskId]);

  /** The finished task as a flow file (GET /task/{id}/flow): saved as a download, or replayed on the chosen device. */
  const withFlow = async (use: (flow: { yaml: string; name: string }) => Promise<void> | void) => {
    if (!taskId) return;
    try {
      const exported = await getJson<{ yaml: string; flow: { name: string } }>(`/task/${encodeURIComponent(taskId)}/flow`);
      await use({ yaml: exported.yaml, name: exported.flow.name });
    } catch (error) {
      onError(error as ApiError);
    }
  };
  const openTask = (id: string) => {
    setTask(undefined);
    setTaskId(id);
  };

  useEffect(() => {
    if (follow) openTask(follow);
  }, [follow]);

  const start = async () => {
    try {
      const started = await postJson<{ taskId: string }>('/agent/task', { goal, planner, maxSteps, ...(device ? { device } : {}) });
      openTask(started.taskId);
    } catch (error) {
      onError(error as ApiError);
    }
  };

  return (
    <section class="card tasks" aria-labelledby="tasks-title">
      <h2 id="tasks-title">Agent tasks</h2>
      <form
        class="task-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (goal.trim()) void start();
        }}
      >
        <label for="goal-input">Goal{device ? ` on ${device}` : ''}</label>
        <textarea id="goal-input" data-testid="goal-input" rows={2} value={goal} placeholder="open Settings then tap General" onInput={(e) => setGoal(e.currentTarget.value)} />
        <div class="inline-form">
          <label for="planner">Planner</label>
          <select id="planner" value={planner} onChange={(e) => setPlanner(e.currentTarget.value)}>
            {PLANNERS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <label for="max-steps">Max steps</label>
          <input id="max-steps" type="number" min={1} max={100} value={maxSteps} onInput={(e) => setMaxSteps(Number(e.currentTarget.value) || 1)} />
          <button type="submit" class="primary" data-testid="start-task" disabled={!goal.trim()}>
            Start task
          </button>
        </div>
      </form>
      {taskId && (
        <div class="task-view" aria-live="polite">
          <div class="card-head">
            <p>
              <span class={`task-status status-${task?.status ?? 'queued'}`} data-testid="task-status">
                {task?.status ?? 'queued'}
              </span>{' '}
              <span class="small">{task?.goal}</span>
            </p>
            {task && !FINISHED.includes(task.status) && (
              <button
                type="button"
                onClick={() => postJson(`/task/${encodeURIComponent(taskId)}/cancel`).catch((error: ApiError) => onError(error))}
              >
                Cancel task
              </button>
            )}
          </div>
          {task?.result && <p class="small">{task.result}</p>}
          {task?.error && <p class="small error-text">{task.error.message}</p>}
          {task?.error?.logs && task.error.logs.length > 0 && (
            <>
              <h3 id="task-logs-title">Device log before it failed</h3>
              <pre class="description log-lines" data-testid="task-logs" aria-labelledby="task-logs-title" tabIndex={0}>
                {task.error.logs.map((l) => `${l.time.slice(11, 23)} ${l.level.padEnd(5)} ${l.process}: ${l.message}`).join('\n')}
              </pre>
            </>
          )}
          {task && FINISHED.includes(task.status) && task.recording && (
            <RecordingVideo url={task.recording.url} label={`Screen recording of the task (${task.recording.seconds.toFixed(1)} s)`} testId="task-recording" />
          )}
          {task && FINISHED.includes(task.status) && (
            <div class="button-row">
              <button type="button" data-testid="save-flow" onClick={() => void withFlow(({ yaml, name }) => saveText(flowFileName(name), yaml))}>
                Save as flow
              </button>
              <button type="button" data-testid="run-flow" onClick={() => void withFlow(async ({ yaml }) => openTask(await runFlow(yaml, device)))}>
                Run flow{device ? ` on ${device}` : ''}
              </button>
            </div>
          )}
          {task && <Timeline task={task} />}
          {task && FINISHED.includes(task.status) && <Filmstrip task={task} />}
        </div>
      )}
      <h3>History</h3>
      <div class="inline-form">
        <label for="filter-status">Status</label>
        <select id="filter-status" value={filterStatus} onChange={(e) => setFilterStatus(e.currentTarget.value)}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label for="filter-device">Device</label>
        <select id="filter-device" value={filterDevice} onChange={(e) => setFilterDevice(e.currentTarget.value)}>
          <option value="">any</option>
          {devices.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        <button type="button" onClick={loadHistory}>
          Reload
        </button>
      </div>
      <ul class="history" data-testid="task-history">
        {history.map((t) => (
          <li key={t.id}>
            <button type="button" class="history-item" onClick={() => setTaskId(t.id)} aria-current={t.id === taskId ? 'true' : undefined}>
              <span class={`task-badge status-${t.status}`}>{t.status}</span> {t.goal}
              <span class="muted small">
                {' '}
                · {t.planner} · {t.stepCount ?? t.steps?.length ?? 0} steps · {new Date(t.createdAt).toLocaleTimeString()}
              </span>
            </button>
          </li>
        ))}
        {history.length === 0 && <li class="muted small">No task yet.</li>}
      </ul>
    </section>
  );
}

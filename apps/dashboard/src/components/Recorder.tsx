import type { ApiError } from '../api';
import { flowFileName, runFlow, saveText } from '../flow-file';
import { flowYaml, type FlowStep } from '../recorder';

export interface RecorderProps {
  /** The steps recorded so far; undefined while not recording and nothing was recorded. */
  steps: FlowStep[] | undefined;
  recording: boolean;
  device: string | undefined;
  onToggle: (on: boolean) => void;
  onClear: () => void;
  /** A run was started (POST /flows/run): the Tasks panel follows it. */
  onRun: (taskId: string) => void;
  onError: (error: ApiError) => void;
}

const RECORDING_NAME = 'Recorded in the dashboard';

/** The Record toggle: what the person does on the screen and buttons, as a flow file shown live. */
export function Recorder({ steps, recording, device, onToggle, onClear, onRun, onError }: RecorderProps) {
  const yaml = steps ? flowYaml(RECORDING_NAME, steps) : undefined;
  return (
    <section class="card recorder" aria-labelledby="recorder-title">
      <div class="card-head">
        <h2 id="recorder-title">Recorder</h2>
        <button type="button" data-testid="record" aria-pressed={recording} onClick={() => onToggle(!recording)}>
          {recording ? 'Stop recording' : 'Record'}
        </button>
      </div>
      {yaml === undefined ? (
        <p class="muted small">Record turns what you do on the screen and the buttons into a flow to save or replay.</p>
      ) : (
        <>
          <pre class="description" data-testid="recording" aria-live="polite" tabIndex={0}>
            {yaml}
          </pre>
          <div class="button-row">
            <button type="button" data-testid="save-recording" disabled={!steps?.length} onClick={() => saveText(flowFileName(RECORDING_NAME), yaml)}>
              Save
            </button>
            <button
              type="button"
              data-testid="run-recording"
              disabled={!steps?.length || recording}
              onClick={() => runFlow(yaml, device).then(onRun, (error: ApiError) => onError(error))}
            >
              Run{device ? ` on ${device}` : ''}
            </button>
            <button type="button" onClick={onClear} disabled={recording}>
              Clear
            </button>
          </div>
        </>
      )}
    </section>
  );
}

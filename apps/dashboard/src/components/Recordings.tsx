import { useEffect, useState } from 'preact/hooks';
import { ApiError, devicePath, getJson, postJson, request } from '../api';

interface RecordingEntry {
  id: string;
  device: string;
  startedAt: string;
  seconds: number;
  recording: boolean;
  url?: string;
}

/** How often the list is read again (a recording in progress grows; one may end by itself). */
const LIST_POLL_MS = 2000;

/**
 * A recording's MP4 in a <video>, fetched with the token (a plain `src` could not send it) into a blob URL.
 * Used by the Recordings panel and by a task that was recorded.
 */
export function RecordingVideo({ url, label, testId }: { url: string; label: string; testId: string }) {
  const [src, setSrc] = useState<string>();
  const [failed, setFailed] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    let made: string | undefined;
    setSrc(undefined);
    setFailed(undefined);
    request('GET', url, undefined, controller.signal)
      .then((res) => res.blob())
      .then((blob) => setSrc((made = URL.createObjectURL(blob))))
      .catch((error: unknown) => !controller.signal.aborted && setFailed(error instanceof ApiError ? error.message : 'The recording could not be loaded.'));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  if (failed) return <p class="muted small">{failed}</p>;
  if (!src) return <p class="muted small">loading the recording…</p>;
  return <video class="recording-video" data-testid={testId} src={src} controls preload="metadata" aria-label={label} />;
}

export interface RecordingsProps {
  device: string | undefined;
  onError: (e: ApiError) => void;
}

/** Screen recordings of the chosen device: Record / Stop, the recordings kept (newest first), one played at a time. */
export function Recordings({ device, onError }: RecordingsProps) {
  const [entries, setEntries] = useState<RecordingEntry[]>([]);
  const [playId, setPlayId] = useState<string>();
  const [pending, setPending] = useState(false);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    setEntries([]);
    setPlayId(undefined);
  }, [device]);

  useEffect(() => {
    if (!device) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      if (!document.hidden) {
        try {
          const answer = await getJson<{ recordings: RecordingEntry[] }>(`/recordings?${new URLSearchParams({ device, limit: '20' })}`, controller.signal);
          setEntries(answer.recordings);
        } catch {
          // The next read tries again; an action's failure is what the banner shows.
        }
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void read(), LIST_POLL_MS);
    };
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [device, reads]);

  const inProgress = entries.find((entry) => entry.recording);
  const playing = entries.find((entry) => entry.id === playId && !entry.recording);
  const toggle = async () => {
    if (!device) return;
    setPending(true);
    try {
      const answer = await postJson<{ id: string }>(devicePath(device, inProgress ? '/recording/stop' : '/recording/start'));
      // The recording just stopped is played once the list has it.
      if (inProgress) setPlayId(answer.id);
    } catch (error) {
      onError(error as ApiError);
    } finally {
      setPending(false);
      setReads((n) => n + 1);
    }
  };

  return (
    <section class="card recordings" aria-labelledby="recordings-title">
      <div class="card-head">
        <h2 id="recordings-title">Recordings</h2>
        <button type="button" data-testid="record-screen" aria-pressed={Boolean(inProgress)} disabled={!device || pending} onClick={() => void toggle()}>
          {inProgress ? `Stop (${inProgress.seconds.toFixed(0)} s)` : 'Record'}
        </button>
      </div>
      <ul class="history" data-testid="recording-list">
        {entries.map((entry) => (
          <li key={entry.id}>
            {entry.recording ? (
              <span class="small">Recording… {entry.seconds.toFixed(1)} s</span>
            ) : (
              <button type="button" class="history-item" aria-current={playId === entry.id ? 'true' : undefined} onClick={() => setPlayId(entry.id)}>
                Play {new Date(entry.startedAt).toLocaleTimeString()} <span class="muted small">· {entry.seconds.toFixed(1)} s</span>
              </button>
            )}
          </li>
        ))}
        {entries.length === 0 && <li class="muted small">{device ? 'No recording of this device.' : 'Choose a device.'}</li>}
      </ul>
      {playing?.url && <RecordingVideo url={playing.url} label={`Recording of ${playing.device} at ${new Date(playing.startedAt).toLocaleTimeString()}`} testId="recording-video" />}
    </section>
  );
}

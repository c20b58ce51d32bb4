import { useEffect, useState } from 'preact/hooks';
import { ApiError, devicePath, getJson } from '../api';

interface LogLine {
  time: string;
  level: string;
  process: string;
  app?: string;
  message: string;
}

interface Crash {
  id: string;
  app: string;
  time: string;
  exception: string;
}

export interface LogsProps {
  device: string | undefined;
}

/** How often the panel asks for the log while it follows (a bounded rate, as a client in a loop may). */
const FOLLOW_MS = 1500;
const SHOWN_LINES = 200;

/**
 * The device log, followed live through GET /logs (the lines since the panel opened on this device, newest last,
 * filtered by app, level and text), with Pause; and a badge when a crash report newer than that appears
 * (GET /crashes). A device that cannot read its log says why, once.
 */
export function Logs({ device }: LogsProps) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [omitted, setOmitted] = useState(0);
  const [crashes, setCrashes] = useState<Crash[]>([]);
  const [paused, setPaused] = useState(false);
  const [level, setLevel] = useState('');
  const [grep, setGrep] = useState('');
  const [app, setApp] = useState('');
  const [unavailable, setUnavailable] = useState<string>();

  useEffect(() => {
    setLines([]);
    setCrashes([]);
    setUnavailable(undefined);
  }, [device]);

  const [openedAt, setOpenedAt] = useState(() => new Date().toISOString());
  useEffect(() => setOpenedAt(new Date().toISOString()), [device]);

  useEffect(() => {
    if (!device || paused || unavailable) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const query = new URLSearchParams({ since: openedAt, limit: String(SHOWN_LINES) });
    if (level) query.set('level', level);
    if (grep.trim()) query.set('grep', grep.trim());
    if (app.trim()) query.set('app', app.trim());
    const poll = async () => {
      if (!document.hidden) {
        try {
          const [log, listed] = await Promise.all([
            getJson<{ entries: LogLine[]; omitted: number }>(`${devicePath(device, '/logs')}?${query}`, controller.signal),
            getJson<{ crashes: Crash[] }>(`${devicePath(device, '/crashes')}?${new URLSearchParams({ since: openedAt })}`, controller.signal),
          ]);
          setLines(log.entries);
          setOmitted(log.omitted);
          setCrashes(listed.crashes);
        } catch (error) {
          if (controller.signal.aborted) return;
          if (error instanceof ApiError && (error.code === 'unsupported_operation' || error.code === 'invalid_argument')) {
            setUnavailable(error.message);
            return;
          }
        }
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), FOLLOW_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [device, paused, level, grep, app, openedAt, unavailable]);

  const latest = crashes[crashes.length - 1];
  return (
    <section class="card logs" aria-labelledby="logs-title">
      <div class="card-head">
        <h2 id="logs-title">Logs</h2>
        {latest && (
          <span class="badge danger" data-testid="crash-badge" role="status" title={`${latest.app}: ${latest.exception}`}>
            {crashes.length} new crash{crashes.length > 1 ? 'es' : ''}: {latest.app}
          </span>
        )}
        <button type="button" data-testid="logs-pause" aria-pressed={paused} onClick={() => setPaused(!paused)} disabled={!device}>
          {paused ? 'Resume' : 'Pause'}
        </button>
      </div>
      {unavailable ? (
        <p class="muted small" data-testid="logs-unavailable">
          {unavailable}
        </p>
      ) : (
        <>
          <div class="button-row">
            <label>
              Level{' '}
              <select aria-label="Log level" value={level} onChange={(e) => setLevel((e.target as HTMLSelectElement).value)}>
                <option value="">all</option>
                <option value="info">info</option>
                <option value="error">error</option>
                <option value="fault">fault</option>
              </select>
            </label>
            <input aria-label="Log app" placeholder="app id" value={app} onChange={(e) => setApp((e.target as HTMLInputElement).value)} />
            <input aria-label="Log text" placeholder="text" value={grep} onChange={(e) => setGrep((e.target as HTMLInputElement).value)} />
          </div>
          <pre class="description log-lines" data-testid="log-lines" aria-live="off" tabIndex={0}>
            {omitted > 0 ? `(${omitted} older line${omitted > 1 ? 's' : ''} not shown)\n` : ''}
            {lines.map((l) => `${l.time.slice(11, 23)} ${l.level.padEnd(5)} ${l.process}: ${l.message}`).join('\n') || (device ? 'No lines since the panel opened.' : 'Choose a device.')}
          </pre>
        </>
      )}
    </section>
  );
}

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, devicePath, getJson, onUnauthorized, postJson, request, tokenStore } from '../api';
import { nodeAt, type Gesture } from '../geometry';
import { stepOf, type FlowStep } from '../recorder';
import { TreeReadScheduler } from '../screen-changes';
import { assignKeys, findByKey } from '../tree-keys';
import type { DeviceStatus, DeviceSummary, FindMatch, Point, UiNode } from '../types';
import { Controls } from './Controls';
import { DeviceList } from './DeviceList';
import { ErrorBanner } from './ErrorBanner';
import { Inspector } from './Inspector';
import { Logs } from './Logs';
import { Recorder } from './Recorder';
import { Recordings } from './Recordings';
import { Screen, type Outline } from './Screen';
import { Tasks } from './Tasks';
import { TokenForm } from './TokenForm';

/** How often the device list (and the chosen device's state) is read again. */
const DEVICES_POLL_MS = 3000;
/** How long after an action the page reads the device's state again (the tree follows the screen's changes). */
const READ_AFTER_ACTION_MS = 250;

type Auth = 'checking' | 'needed' | 'rejected' | 'ok';

async function loadDevices(): Promise<DeviceStatus[]> {
  const { devices } = await getJson<{ devices: DeviceSummary[] }>('/devices');
  // Model, OS and screen come from each device's status; an offline device keeps what the list says.
  return Promise.all(devices.map((d) => getJson<DeviceStatus>(devicePath(d.id)).then((s) => ({ ...d, ...s }), () => d as DeviceStatus)));
}

function describeText(answer: {
  app?: { appId: string; name?: string };
  alert?: { title?: string; buttons: string[] };
  keyboardVisible?: boolean;
  elements?: { ref: string; role: string; label?: string; value?: string; center: Point }[];
  staticText?: { text: string }[];
  ocrText?: { text: string }[];
}): string {
  const lines = [`App: ${answer.app?.name ?? answer.app?.appId ?? '?'}${answer.keyboardVisible ? ' (keyboard up)' : ''}`];
  if (answer.alert) lines.push(`Alert: ${answer.alert.title ?? ''} [${answer.alert.buttons.join(', ')}]`);
  for (const e of answer.elements ?? []) {
    lines.push(`${e.ref}  ${e.role}  ${e.label ?? ''}${e.value !== undefined ? ` = ${e.value}` : ''}  (${e.center.x}, ${e.center.y})`);
  }
  const texts = [...(answer.staticText ?? []), ...(answer.ocrText ?? [])].map((t) => t.text);
  if (texts.length) lines.push(`Text: ${texts.join(' · ')}`);
  return lines.join('\n');
}

export function App() {
  const [auth, setAuth] = useState<Auth>('checking');
  const [devices, setDevices] = useState<DeviceStatus[]>();
  const [deviceId, setDeviceId] = useState<string>();
  const [root, setRoot] = useState<UiNode>();
  const [hovered, setHovered] = useState<UiNode>();
  const [selected, setSelected] = useState<UiNode>();
  const [matches, setMatches] = useState<FindMatch[]>();
  const [description, setDescription] = useState<string>();
  const [apps, setApps] = useState<{ appId: string; name?: string }[]>([]);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const treeRead = useRef({ running: false, again: false });
  const treeReads = useRef<TreeReadScheduler>(undefined);
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<FlowStep[]>();
  const [followTask, setFollowTask] = useState<string>();
  // What `run` reads at the moment of an action: the tree the person saw, and whether to record.
  const seen = useRef<{ root?: UiNode; recording: boolean }>({ recording: false });
  seen.current = { root, recording };

  // A refused token (one was given) or none at all: the form asks, saying which.
  useEffect(() => onUnauthorized(() => setAuth(tokenStore.get() ? 'rejected' : 'needed')), []);

  const refreshDevices = useCallback(async () => {
    try {
      const list = await loadDevices();
      setDevices(list);
      setAuth('ok');
      setDeviceId((current) => (current && list.some((d) => d.id === current) ? current : list.find((d) => d.state !== 'offline')?.id ?? list[0]?.id));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 401)) setError(e as ApiError);
    }
  }, []);

  useEffect(() => {
    if (auth === 'needed' || auth === 'rejected') return;
    void refreshDevices();
    const timer = window.setInterval(() => void refreshDevices(), DEVICES_POLL_MS);
    return () => window.clearInterval(timer);
  }, [auth === 'needed' || auth === 'rejected']);

  const refreshTree = useCallback(async () => {
    if (!deviceId) return;
    // One read at a time; a request meanwhile asks for one more read afterwards.
    if (treeRead.current.running) {
      treeRead.current.again = true;
      return;
    }
    treeRead.current.running = true;
    try {
      const answer = await getJson<{ root: UiNode }>(`${devicePath(deviceId, '/ui-tree')}?format=tree`);
      // Nodes keep their identity across reads (a row that moved is the same row): the one under the pointer
      // stays hovered, and its outline follows it.
      const root = assignKeys(answer.root);
      setRoot(root);
      setSelected((s) => findByKey(root, s?.key));
      setHovered((h) => findByKey(root, h?.key));
    } catch (e) {
      setError(e as ApiError);
    } finally {
      treeRead.current.running = false;
      if (treeRead.current.again) {
        treeRead.current.again = false;
        void refreshTree();
      }
    }
  }, [deviceId]);

  useEffect(() => {
    setRoot(undefined);
    setSelected(undefined);
    setMatches(undefined);
    setDescription(undefined);
    if (!deviceId || auth !== 'ok') return;
    void refreshTree();
    // Anyone (this page, agents over MCP, tasks) changes the screen: the tree is read again when the live screen
    // shows a change, never on a timer and never while the page is hidden.
    const scheduler = new TreeReadScheduler(() => void refreshTree(), () => document.hidden, {
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (id) => window.clearTimeout(id),
      now: () => performance.now(),
    });
    treeReads.current = scheduler;
    const onVisibility = () => scheduler.visibilityChanged();
    document.addEventListener('visibilitychange', onVisibility);
    getJson<{ apps: { appId: string; name?: string }[] }>(devicePath(deviceId, '/apps'))
      .then((a) => setApps(a.apps))
      .catch(() => setApps([]));
    return () => {
      scheduler.cancel();
      treeReads.current = undefined;
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [deviceId, auth === 'ok']);

  /** The live screen changed: what was found on the old one is outlined no more, and the tree is read again. */
  const onScreenChange = useCallback(() => {
    setMatches(undefined);
    treeReads.current?.changed();
  }, []);

  /** Runs one operation on the chosen device, then reads its state again. */
  const run = useCallback(
    async (path: string, body: object) => {
      if (!deviceId) return;
      setBusy(true);
      // The step names the element on the screen as it was when the person acted; kept once the action ran.
      const step = seen.current.recording ? stepOf(path, body as Record<string, unknown>, seen.current.root) : undefined;
      try {
        await request('POST', devicePath(deviceId, path), body);
        if (step) setRecorded((steps) => [...(steps ?? []), step]);
        setError(undefined);
        setMatches(undefined);
      } catch (e) {
        setError(e as ApiError);
      } finally {
        setBusy(false);
      }
      // Read the new state a moment later; the tree is read when the screen shows the change.
      window.setTimeout(() => void refreshDevices(), READ_AFTER_ACTION_MS);
    },
    [deviceId],
  );

  const onGesture = (g: Gesture) => {
    if (g.kind === 'tap') void run('/tap', g.at);
    else if (g.kind === 'long_press') void run('/long-press', { ...g.at, durationMs: Math.max(100, g.durationMs) });
    else void run('/swipe', { from: g.from, to: g.to, durationMs: g.durationMs });
  };

  const find = async (kind: 'text' | 'icon', query: string) => {
    if (!deviceId) return;
    try {
      const answer = await postJson<{ matches: FindMatch[] }>(devicePath(deviceId, kind === 'text' ? '/find-text' : '/find-icon'), kind === 'text' ? { text: query } : { name: query });
      setMatches(answer.matches);
      setError(undefined);
    } catch (e) {
      setError(e as ApiError);
    }
  };

  const describe = async () => {
    if (!deviceId) return;
    try {
      setDescription(describeText(await getJson(devicePath(deviceId, '/describe'))));
    } catch (e) {
      setError(e as ApiError);
    }
  };

  if (auth === 'needed' || auth === 'rejected') {
    return (
      <TokenForm
        rejected={auth === 'rejected'}
        onToken={(token) => {
          tokenStore.set(token);
          setAuth('checking');
        }}
      />
    );
  }

  const device = devices?.find((d) => d.id === deviceId);
  const outlines: Outline[] = [
    ...(matches ?? []).map((m) => ({ rect: m.bounds, kind: m.source === 'ui-tree' ? ('tree' as const) : ('ocr' as const), label: m.text ?? m.label })),
    ...(selected ? [{ rect: selected.bounds, kind: 'selected' as const, label: selected.label }] : []),
    ...(hovered ? [{ rect: hovered.bounds, kind: 'hover' as const, label: hovered.label }] : []),
  ];

  return (
    <div class="app">
      <header class="topbar">
        <h1>Apex</h1>
        <span class="muted small">{device ? `${device.name} · ${device.foregroundApp?.name ?? device.foregroundApp?.appId ?? ''}` : 'No device chosen'}</span>
        <span class="spacer" />
        {busy && <span class="muted small">working…</span>}
        {tokenStore.get() && (
          <button
            type="button"
            onClick={() => {
              tokenStore.set(undefined);
              setAuth('needed');
            }}
          >
            Forget token
          </button>
        )}
        <a href="/docs">API docs</a>
      </header>
      <ErrorBanner error={error} onDismiss={() => setError(undefined)} />
      <main class="layout">
        <div class="column left">
          <DeviceList devices={devices} selected={deviceId} onSelect={setDeviceId} />
          <Tasks devices={devices ?? []} device={deviceId} follow={followTask} onError={setError} />
          <Logs device={deviceId} />
          <Recordings device={deviceId} onError={setError} />
        </div>
        <div class="column center">
          {device && device.screen ? (
            <Screen
              device={device.id}
              screen={device.screen}
              outlines={outlines}
              onGesture={onGesture}
              onScroll={(s) => void run('/swipe', { from: s.from, to: s.to })}
              onType={(text, submit) => void run('/input', { text, submit })}
              onHover={(p) => setSelected((s) => (p ? (nodeAt(root, p) ?? s) : s))}
              onError={(e) => e && setError(e)}
              onChange={onScreenChange}
            />
          ) : (
            <p class="muted">{devices?.length === 0 ? 'No device.' : device ? 'The device is offline.' : 'Choose a device.'}</p>
          )}
          <Controls status={device} apps={apps} run={(path, body) => void run(path, body)} />
          <Recorder
            steps={recorded}
            recording={recording}
            device={deviceId}
            onToggle={(on) => {
              setRecording(on);
              if (on) setRecorded((steps) => steps ?? []);
            }}
            onClear={() => setRecorded(undefined)}
            onRun={setFollowTask}
            onError={setError}
          />
        </div>
        <div class="column right">
          <Inspector
            root={root}
            hovered={hovered}
            selected={selected}
            matches={matches}
            description={description}
            onHover={setHovered}
            onSelect={setSelected}
            onRefresh={() => void refreshTree()}
            onFind={(kind, query) => void find(kind, query)}
            onDescribe={() => void describe()}
          />
        </div>
      </main>
    </div>
  );
}

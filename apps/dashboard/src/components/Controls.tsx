import { useState } from 'preact/hooks';
import type { DeviceStatus } from '../types';

export interface ControlsProps {
  status: DeviceStatus | undefined;
  apps: { appId: string; name?: string }[];
  /** Runs one REST operation on the device (POST /devices/{d}/<path>). */
  run: (path: string, body: object) => void;
}

/** The device's buttons and system actions, each the REST operation of the same name. */
export function Controls({ status, apps, run }: ControlsProps) {
  const [url, setUrl] = useState('https://example.com');
  const [app, setApp] = useState('');
  const locked = status?.locked ?? false;
  const landscape = status?.orientation === 'landscape';
  // Only Android phones have the system Back and Recents buttons (an iPhone refuses both); `platform` is what
  // device_status says.
  const systemButtons = status?.platform === 'android';
  return (
    <section class="card controls" aria-labelledby="controls-title">
      <h2 id="controls-title" class="visually-hidden">
        Device controls
      </h2>
      <div class="button-row">
        {systemButtons && (
          <button type="button" onClick={() => run('/press-button', { button: 'back' })}>
            Back
          </button>
        )}
        <button type="button" onClick={() => run('/press-button', { button: 'home' })}>
          Home
        </button>
        {systemButtons && (
          <button type="button" onClick={() => run('/press-button', { button: 'recents' })}>
            Recents
          </button>
        )}
        <button type="button" onClick={() => run('/lock', { locked: !locked })}>
          {locked ? 'Unlock' : 'Lock'}
        </button>
        <button type="button" onClick={() => run('/press-button', { button: 'volumeUp' })}>
          Volume up
        </button>
        <button type="button" onClick={() => run('/press-button', { button: 'volumeDown' })}>
          Volume down
        </button>
        <button
          type="button"
          title={`Turn to ${landscape ? 'portrait' : 'landscape'}`}
          data-next-orientation={landscape ? 'portrait' : 'landscape'}
          onClick={() => run('/orientation', { orientation: landscape ? 'portrait' : 'landscape' })}
        >
          Rotate
        </button>
        <button type="button" onClick={() => run('/appearance', { appearance: 'light' })}>
          Light
        </button>
        <button type="button" onClick={() => run('/appearance', { appearance: 'dark' })}>
          Dark
        </button>
        <button type="button" onClick={() => run('/hide-keyboard', {})}>
          Hide keyboard
        </button>
        <button type="button" onClick={() => run('/alert', { action: 'accept' })}>
          Accept alert
        </button>
        <button type="button" onClick={() => run('/alert', { action: 'dismiss' })}>
          Dismiss alert
        </button>
      </div>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          run('/open-url', { url });
        }}
      >
        <label for="open-url">URL</label>
        <input id="open-url" type="text" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <button type="submit">Open URL</button>
      </form>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const wanted = app.trim();
          const known = apps.find((a) => a.appId === wanted || a.name === wanted);
          // An id looks like com.example.App; anything else is the name on the icon.
          run('/launch', known ? { appId: known.appId } : /^[\w-]+(\.[\w-]+)+$/.test(wanted) ? { appId: wanted } : { name: wanted });
        }}
      >
        <label for="launch-app">App</label>
        <input id="launch-app" type="text" list="app-choices" value={app} placeholder="Settings or com.apple.Preferences" onInput={(e) => setApp(e.currentTarget.value)} />
        <datalist id="app-choices">
          {apps.map((a) => (
            <option key={a.appId} value={a.appId}>
              {a.name}
            </option>
          ))}
        </datalist>
        <button type="submit">Launch app</button>
      </form>
    </section>
  );
}

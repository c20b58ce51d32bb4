/** A device as the adb server lists it (`host:devices-l`, `host:track-devices-l`). */
export interface AdbDeviceEntry {
  serial: string;
  /** `device` (ready), `offline`, `unauthorized`, `authorizing`, `connecting`, `no permissions`, `recovery`, … */
  state: string;
  model?: string;
  product?: string;
}

const KNOWN_STATES = ['no permissions', 'device', 'offline', 'unauthorized', 'authorizing', 'connecting', 'recovery', 'rescue', 'sideload', 'bootloader', 'host', 'disconnected'];

/**
 * One line per device: the serial, spaces, the state (two words for "no permissions", followed by a hint in
 * brackets), then `key:value` pairs (`product:… model:… device:… transport_id:N`), as adb's
 * `list_transports` writes them in long form.
 */
export function parseDeviceList(text: string): AdbDeviceEntry[] {
  const entries: AdbDeviceEntry[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(.*)$/.exec(line.trim());
    if (!match) continue;
    const [, serial, rest] = match as unknown as [string, string, string];
    const state = KNOWN_STATES.find((s) => rest === s || rest.startsWith(`${s} `)) ?? rest.split(/\s+/)[0] ?? '';
    const entry: AdbDeviceEntry = { serial, state };
    for (const [, key, value] of rest.matchAll(/\b(model|product):(\S+)/g)) entry[key as 'model' | 'product'] = value;
    entries.push(entry);
  }
  return entries;
}

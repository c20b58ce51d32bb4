import { runTool, ToolMissing, type RunToolOptions } from './run-tool';

/** A booted iOS simulator as the host's simulator tool lists it. */
export interface BootedSimulator {
  udid: string;
  name: string;
  /** "17.5", from the runtime identifier. */
  osVersion: string;
}

/** `com.apple.CoreSimulator.SimRuntime.iOS-17-5` → "17.5"; other platforms (watchOS, tvOS, visionOS) → undefined. */
export function iosVersionOfRuntime(runtime: string): string | undefined {
  const match = /\.SimRuntime\.iOS-(\d+(?:-\d+)*)$/.exec(runtime);
  return match?.[1]?.replace(/-/g, '.');
}

/**
 * Reads `xcrun simctl list devices booted -j` (the JSON `simctl list` prints with `-j`/`--json`: an object
 * `devices` keyed by runtime identifier, each an array of `{udid, name, state, isAvailable, …}`).
 */
export function parseBootedSimulators(json: string): BootedSimulator[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const devices = (parsed as { devices?: unknown } | null)?.devices;
  if (!devices || typeof devices !== 'object') return [];
  const found: BootedSimulator[] = [];
  for (const [runtime, list] of Object.entries(devices as Record<string, unknown>)) {
    const osVersion = iosVersionOfRuntime(runtime);
    if (!osVersion || !Array.isArray(list)) continue;
    for (const entry of list as Array<Record<string, unknown>>) {
      if (entry?.state !== 'Booted' || entry.isAvailable === false) continue;
      if (typeof entry.udid !== 'string' || typeof entry.name !== 'string') continue;
      found.push({ udid: entry.udid, name: entry.name, osVersion });
    }
  }
  return found;
}

/** The booted iOS simulators; none where the simulator tool is missing (not a Mac, or no Xcode). */
export async function listBootedSimulators(options: RunToolOptions): Promise<BootedSimulator[]> {
  try {
    const result = await runTool('xcrun', ['simctl', 'list', 'devices', 'booted', '-j'], options);
    return result.code === 0 ? parseBootedSimulators(result.stdout) : [];
  } catch (error) {
    if (error instanceof ToolMissing) return [];
    throw error;
  }
}

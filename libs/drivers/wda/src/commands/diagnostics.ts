import { ApexError } from '@apex/errors';
import type { CrashReport, CrashSummary, LogEntry, LogQuery } from '@apex/port';
import { parseIps, parseOsLogLine, type IosDiagnosticsSource } from '@apex/ios-source';

/*
 * The log and crash reports of an iPhone, from its host's diagnostics source (the agent has no route for
 * them). The source narrows by time; the rest of the query is the caller's to apply.
 */

/** A report's timestamp is in hundredths of a second: one stamped within the hundredth of `since` counts as after it. */
const IPS_TIME_RESOLUTION_MS = 10;

/** Characters of one log line read (a longer one is not a line the log writes: skipped). */
const MAX_LINE_CHARS = 64 * 1024;

/** What a failure of the host's tools is to a client: the device's log could not be read there (the tool's text stays in `cause`). */
export function hostToolFailure(deviceId: string, what: string, error: unknown): ApexError {
  if (error instanceof ApexError) return error;
  return new ApexError('device_error', `Device ${deviceId} could not ${what}: its host's tools failed.`, {
    hint: "Check that the host's developer tools are installed and the device is still booted or connected, then retry.",
    cause: error,
  });
}

export async function* logs(deviceId: string, source: IosDiagnosticsSource, query: LogQuery, signal: AbortSignal): AsyncGenerator<LogEntry> {
  try {
    for await (const line of source.logLines(query.sinceMs, signal)) {
      if (signal.aborted) return;
      if (line.length > MAX_LINE_CHARS) continue;
      const entry = parseOsLogLine(line);
      if (entry) yield entry;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw hostToolFailure(deviceId, 'read its log', error);
  }
}

async function reports(source: IosDiagnosticsSource, signal: AbortSignal): Promise<CrashReport[]> {
  const files = await source.crashFiles(signal);
  return files.filter((f) => f.name.endsWith('.ips')).flatMap((f) => parseIps(f.name, f.text) ?? []);
}

export async function crashReports(source: IosDiagnosticsSource, query: { app?: string; sinceMs?: number }, signal: AbortSignal): Promise<CrashSummary[]> {
  return (await reports(source, signal))
    .filter((c) => (query.app === undefined || c.app === query.app) && (query.sinceMs === undefined || c.time > query.sinceMs - IPS_TIME_RESOLUTION_MS))
    .map(({ id, app, time, exception }) => ({ id, app, time, exception }));
}

export async function crashReport(source: IosDiagnosticsSource, id: string, signal: AbortSignal): Promise<CrashReport | undefined> {
  return (await reports(source, signal)).find((c) => c.id === id);
}

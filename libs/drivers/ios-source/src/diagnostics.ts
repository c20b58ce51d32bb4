import type { CrashReport, LogEntry, LogLevel } from '@apex/port';

/*
 * An iPhone's log and crash reports as a Mac's tools give them: the unified log as `log show --style ndjson`
 * prints it (`xcrun simctl spawn UDID log show --style ndjson` for a simulator), crash reports as the `.ips`
 * files of DiagnosticReports (iOS 15+: a JSON header line, then a JSON body). The automation agent has no route
 * for either: a driver gets them from such a source, when its host has one.
 */

/** Where an iPhone's log and crash reports come from (a simulator's tools, a USB connection's, an embedded phone's). */
export interface IosDiagnosticsSource {
  /** `log show --style ndjson` lines from `sinceMs` on (everything kept when undefined), oldest first. */
  logLines(sinceMs: number | undefined, signal: AbortSignal): AsyncIterable<string>;
  /** The crash report files (`Name-YYYY-MM-DD-HHMMSS.ips`) with their text. */
  crashFiles(signal: AbortSignal): Promise<{ name: string; text: string }[]>;
}

const LEVELS: Record<string, LogLevel> = { Default: 'info', Info: 'info', Debug: 'debug', Error: 'error', Fault: 'fault' };

/** `2026-12-06 10:15:00.123456+0000` (the log) or `2026-12-06 10:15:00.00 +0000` (.ips) → ms since the epoch. */
export function parseAppleTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))? ?([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m as unknown as string[];
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  const offset = (Number(oh) * 60 + Number(om)) * 60_000 * (sign === '-' ? -1 : 1);
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms) - offset;
}

/** An app's process runs from an app bundle outside the system (`/Applications/X.app/X`, an installed app's container). */
function isAppProcess(path: string): boolean {
  return /^\/Applications\/[^/]+\.app\//.test(path) || /\/Containers\/Bundle\/Application\/[^/]+\/[^/]+\.app\//.test(path);
}

/** One ndjson line of the log → an entry; undefined for what is not a log event (activities, signposts, bad lines). */
export function parseOsLogLine(line: string): LogEntry | undefined {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null || event['eventType'] !== 'logEvent') return undefined;
  const time = typeof event['timestamp'] === 'string' ? parseAppleTime(event['timestamp']) : undefined;
  const message = event['eventMessage'];
  if (time === undefined || typeof message !== 'string') return undefined;
  const path = typeof event['processImagePath'] === 'string' ? event['processImagePath'] : '';
  const subsystem = typeof event['subsystem'] === 'string' ? event['subsystem'] : '';
  const process = path.split('/').pop() || 'unknown';
  const pid = typeof event['processID'] === 'number' ? event['processID'] : undefined;
  const app = isAppProcess(path) && /^[A-Za-z0-9][\w.-]*\.[\w.-]+$/.test(subsystem) ? subsystem : undefined;
  return {
    time,
    level: LEVELS[String(event['messageType'])] ?? 'info',
    process,
    ...(pid === undefined ? {} : { pid }),
    ...(app ? { app } : {}),
    message,
  };
}

interface IpsFrame {
  symbol?: string;
  symbolLocation?: number;
  imageIndex?: number;
  imageOffset?: number;
}

/** A `.ips` crash report (bug_type 309) → the report; undefined when the file is not one. */
export function parseIps(name: string, text: string): CrashReport | undefined {
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  let header: Record<string, unknown>;
  let body: Record<string, unknown>;
  try {
    header = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
    body = JSON.parse(text.slice(nl + 1)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (String(header['bug_type']) !== '309') return undefined;
  const time = typeof header['timestamp'] === 'string' ? parseAppleTime(header['timestamp']) : undefined;
  const app = typeof header['bundleID'] === 'string' ? header['bundleID'] : typeof header['app_name'] === 'string' ? header['app_name'] : undefined;
  if (time === undefined || app === undefined) return undefined;
  const exception = (body['exception'] ?? {}) as { type?: string; signal?: string };
  const reasonOf = (body['exceptionReason'] as { composed_message?: string } | undefined)?.composed_message ?? (body['termination'] as { indicator?: string } | undefined)?.indicator;
  const images = Array.isArray(body['usedImages']) ? (body['usedImages'] as { name?: string }[]) : [];
  const threads = Array.isArray(body['threads']) ? (body['threads'] as { triggered?: boolean; frames?: IpsFrame[] }[]) : [];
  const faulting = typeof body['faultingThread'] === 'number' ? threads[body['faultingThread']] : threads.find((t) => t.triggered);
  const frames = (faulting?.frames ?? []).map((f) => {
    const image = images[f.imageIndex ?? -1]?.name ?? '???';
    return f.symbol ? `${image} ${f.symbol} + ${f.symbolLocation ?? 0}` : `${image} ${f.imageOffset ?? 0}`;
  });
  return {
    id: name,
    app,
    time,
    exception: exception.type ?? 'unknown',
    ...(exception.signal ? { signal: exception.signal } : {}),
    ...(reasonOf ? { reason: reasonOf } : {}),
    frames,
    text,
  };
}

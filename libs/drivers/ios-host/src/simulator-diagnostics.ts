import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { startTool, ToolMissing } from './run-tool';

/*
 * A booted simulator's log and crash reports, as Xcode's tools give them: the unified log through
 * `xcrun simctl spawn UDID log show --style ndjson [--start "YYYY-MM-DD HH:MM:SS"]` (one JSON object a line; the
 * time is the Mac's local time), crash reports as the `.ips` files the Mac keeps in
 * ~/Library/Logs/DiagnosticReports (a simulator's name its process path, under CoreSimulator/Devices/UDID/).
 * The shape is driver-wda's diagnostics source.
 */

export interface SimulatorDiagnosticsOptions {
  /** The tools' environment (PATH), default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the Mac keeps crash reports, default ~/Library/Logs/DiagnosticReports. */
  crashDir?: string;
}

/** Characters of one log line kept (a longer one is skipped); reports read at most (the newest) and bytes each. */
const MAX_LINE_CHARS = 64 * 1024;
const MAX_REPORTS = 50;
const MAX_REPORT_BYTES = 2 * 1024 * 1024;

/** `--start`'s format: the Mac's local time, to the second. */
function localStamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export function simulatorDiagnostics(udid: string, options: SimulatorDiagnosticsOptions = {}) {
  const crashDir = options.crashDir ?? path.join(homedir(), 'Library', 'Logs', 'DiagnosticReports');
  return {
    /** The log from `sinceMs` on (the last hour when undefined), line by line as the tool prints it; the signal ends the tool. */
    async *logLines(sinceMs: number | undefined, signal: AbortSignal): AsyncGenerator<string> {
      const window = sinceMs === undefined ? ['--last', '1h'] : ['--start', localStamp(sinceMs)];
      const child = startTool('xcrun', ['simctl', 'spawn', udid, 'log', 'show', '--style', 'ndjson', ...window], { signal, env: options.env });
      const failed = new Promise<never>((_, reject) => child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ToolMissing('xcrun') : error)));
      failed.catch(() => undefined);
      const stdout = child.stdout;
      if (!stdout) return;
      stdout.setEncoding('utf8');
      let pending = '';
      try {
        for await (const chunk of stdout as AsyncIterable<string>) {
          pending += chunk;
          const lines = pending.split('\n');
          pending = lines.pop() ?? '';
          if (pending.length > MAX_LINE_CHARS) pending = '';
          for (const line of lines) {
            if (signal.aborted) return;
            if (line.length <= MAX_LINE_CHARS && line.startsWith('{')) yield line;
          }
        }
        if (pending.startsWith('{')) yield pending;
        await Promise.race([failed, new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('close', () => resolve())))]);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },

    /** The Mac's `.ips` reports of this simulator's processes, newest first (at most 50, each at most 2 MB). */
    async crashFiles(signal: AbortSignal): Promise<{ name: string; text: string }[]> {
      let names: string[];
      try {
        names = (await readdir(crashDir)).filter((n) => n.endsWith('.ips'));
      } catch {
        return [];
      }
      const dated = await Promise.all(
        names.map(async (name) => {
          const info = await stat(path.join(crashDir, name)).catch(() => undefined);
          return { name, mtime: info?.mtimeMs ?? 0, size: info?.size ?? Infinity };
        }),
      );
      const files: { name: string; text: string }[] = [];
      for (const file of dated.sort((a, b) => b.mtime - a.mtime)) {
        if (signal.aborted || files.length >= MAX_REPORTS) break;
        if (file.size > MAX_REPORT_BYTES) continue;
        const text = await readFile(path.join(crashDir, file.name), 'utf8').catch(() => '');
        if (text.includes(`/CoreSimulator/Devices/${udid}/`)) files.push({ name: file.name, text });
      }
      return files;
    },
  };
}

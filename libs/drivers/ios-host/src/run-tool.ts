import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import * as path from 'node:path';

/** What a finished command printed and how it ended. */
export interface ToolResult {
  stdout: string;
  stderr: string;
  /** The exit code, or null when a signal ended it. */
  code: number | null;
}

/** A command of the host's tool chain (Xcode, go-ios, …) that is not installed. */
export class ToolMissing extends Error {
  constructor(readonly tool: string) {
    super(`${tool} is not installed (not found on PATH)`);
    this.name = 'ToolMissing';
  }
}

export interface RunToolOptions {
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to the tool's stdin, then closed (e.g. `simctl push … -` reads its payload there); default: no stdin. */
  input?: string;
}

/** Output kept per stream: tool listings are small; a runaway tool must not grow memory without bound. */
export const MAX_TOOL_OUTPUT_CHARS = 4 * 1024 * 1024;

/** Runs a host tool to completion (no shell, arguments as given) and collects its output, bounded. */
export type RunTool = (command: string, args: readonly string[], options: RunToolOptions) => Promise<ToolResult>;

/**
 * Starts the tool in its own process group and ends the whole group when the signal aborts (xcodebuild and
 * go-ios start children of their own). Rejects `ToolMissing` when the command does not exist.
 */
export function startTool(command: string, args: readonly string[], options: RunToolOptions): ChildProcess {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  if (options.input !== undefined) {
    // A tool that exits without reading its input is not an error of ours (EPIPE).
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  }
  const stop = () => killGroup(child);
  options.signal.addEventListener('abort', stop, { once: true });
  child.once('exit', () => options.signal.removeEventListener('abort', stop));
  child.once('error', () => options.signal.removeEventListener('abort', stop));
  return child;
}

export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Whether `command` names a program: a path is left to spawn to find; a bare name must be an executable on the
 * PATH the tool gets. Looking is a few stat calls, where spawning a missing tool forks this (large) process
 * first — on a machine without Xcode or go-ios, at every look for phones.
 */
async function installed(command: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (command.includes(path.sep)) return true;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      await access(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

export const runTool: RunTool = async (command, args, options) => {
  if (!(await installed(command, options.env ?? process.env))) throw new ToolMissing(command);
  return new Promise<ToolResult>((resolve, reject) => {
    if (options.signal.aborted) {
      reject(options.signal.reason);
      return;
    }
    const child = startTool(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_TOOL_OUTPUT_CHARS) stdout += chunk.slice(0, MAX_TOOL_OUTPUT_CHARS - stdout.length);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_TOOL_OUTPUT_CHARS) stderr += chunk.slice(0, MAX_TOOL_OUTPUT_CHARS - stderr.length);
    });
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new ToolMissing(command) : error));
    child.once('close', (code) => {
      if (options.signal.aborted) reject(options.signal.reason);
      else resolve({ stdout, stderr, code });
    });
  });
};

/** Calls `onLine` for each complete line the stream prints (the last one too, when the stream ends). */
export function eachLine(stream: NodeJS.ReadableStream | null | undefined, onLine: (line: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    // A line longer than the bound is cut: nothing the launcher looks for is that long.
    if (pending.length > MAX_TOOL_OUTPUT_CHARS) pending = '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
    pending = '';
  });
}

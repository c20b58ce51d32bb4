import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface SpawnNodeOptions {
  /** The child's whole environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WaitForLineOptions {
  /** A deadline for a slow start, not a timing assertion: be generous. */
  timeoutMs: number;
  /** Which output to read. Default stdout. */
  stream?: 'stdout' | 'stderr';
}

/** A child process whose output is read line by line, every wait with a deadline. */
export interface SpawnedProcess {
  readonly pid: number | undefined;
  /** Complete lines so far (a last line without a newline joins when the stream ends). */
  readonly stdoutLines: readonly string[];
  readonly stderrLines: readonly string[];
  /** The lines so far, joined with newlines. */
  stdout(): string;
  stderr(): string;
  /**
   * The match of the first line (already seen or still to come) that matches `pattern`; rejects with the lines
   * seen so far when the deadline passes or the process ends first.
   */
  waitForLine(pattern: RegExp, options: WaitForLineOptions): Promise<RegExpMatchArray>;
  /** Settles once the process has ended and all its output has been read. */
  readonly exited: Promise<Exit>;
  /** `exited`, or a rejection with the lines seen so far after `timeoutMs`. */
  waitForExit(options: { timeoutMs: number }): Promise<Exit>;
  /** Writes to the child's stdin. */
  write(text: string): void;
  /** Closes the child's stdin. */
  endInput(): void;
  /** Sends a signal (default SIGTERM) unless the process has already ended. */
  kill(signal?: NodeJS.Signals): void;
}

interface Tracked {
  process: SpawnedProcess;
  /** Started inside a test (or its beforeEach): killed when that test ends; otherwise when the file ends. */
  perTest: boolean;
}

const live = new Set<Tracked>();
let inTest = false;

/**
 * Starts `node …args` with piped stdio. Under Jest, a process still running when its test ends (or, if it was
 * started in a beforeAll, when the file ends) is killed with SIGKILL and awaited, so no test leaves one behind.
 */
export function spawnNode(args: string[], options: SpawnNodeOptions = {}): SpawnedProcess {
  const child = spawn(process.execPath, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  readLines(child.stdout, lines.stdout, notify);
  readLines(child.stderr, lines.stderr, notify);
  // An EPIPE on stdin after the child ended is not the test's concern.
  child.stdin.on('error', () => undefined);

  let ended: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => {
      lines.stderr.push(`spawn failed: ${error.message}`);
      ended = { code: null, signal: null };
      resolve(ended);
      notify();
    });
    // 'close' (not 'exit'): stdout and stderr have been read to the end.
    child.once('close', (code, signal) => {
      ended = { code, signal };
      resolve(ended);
      notify();
    });
  });

  const seen = () => `stdout:\n${indent(lines.stdout)}\nstderr:\n${indent(lines.stderr)}`;
  const name = `node ${args.join(' ')}`;

  const spawned: SpawnedProcess = {
    pid: child.pid,
    stdoutLines: lines.stdout,
    stderrLines: lines.stderr,
    stdout: () => lines.stdout.join('\n'),
    stderr: () => lines.stderr.join('\n'),
    exited,
    waitForLine(pattern, { timeoutMs, stream = 'stdout' }) {
      const source = lines[stream];
      return new Promise((resolve, reject) => {
        let checked = 0;
        const stop = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = () => {
          for (; checked < source.length; checked++) {
            const match = pattern.exec(source[checked] as string);
            if (match) {
              stop();
              resolve(match);
              return;
            }
          }
          if (ended) {
            stop();
            reject(new Error(`${name} ended (${describeExit(ended)}) before a ${stream} line matching ${pattern}\n${seen()}`));
          }
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no ${stream} line matching ${pattern} from ${name} within ${timeoutMs} ms\n${seen()}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    waitForExit({ timeoutMs }) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} still running after ${timeoutMs} ms\n${seen()}`)), timeoutMs);
      });
      return Promise.race([exited, deadline]).finally(() => clearTimeout(timer));
    },
    write: (text) => void child.stdin.write(text),
    endInput: () => void child.stdin.end(),
    kill(signal = 'SIGTERM') {
      if (!ended && child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };

  const tracked: Tracked = { process: spawned, perTest: inTest };
  live.add(tracked);
  void exited.then(() => live.delete(tracked));
  return spawned;
}

function readLines(stream: Readable, into: string[], onLine: () => void): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() as string;
    if (parts.length === 0) return;
    for (const part of parts) into.push(part.endsWith('\r') ? part.slice(0, -1) : part);
    onLine();
  });
  stream.on('end', () => {
    if (partial) into.push(partial);
    partial = '';
    onLine();
  });
}

function indent(lines: readonly string[]): string {
  return lines.length === 0 ? '  (nothing)' : lines.map((line) => `  ${line}`).join('\n');
}

function describeExit({ code, signal }: Exit): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

async function killAll(which: (tracked: Tracked) => boolean): Promise<void> {
  const victims = [...live].filter(which);
  for (const { process } of victims) process.kill('SIGKILL');
  await Promise.all(victims.map(({ process }) => process.exited));
}

// Under Jest, clean up after every test and at the end of the file. (Outside Jest, e.g. a script, nothing is
// registered and the caller kills what it starts.)
if (typeof beforeEach === 'function' && typeof afterEach === 'function' && typeof afterAll === 'function') {
  beforeEach(() => {
    inTest = true;
  });
  afterEach(async () => {
    inTest = false;
    await killAll((tracked) => tracked.perTest);
  });
  afterAll(() => killAll(() => true));
}

import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The real `adb` binary (Debian's `adb`, 29.x) on a PRIVATE server port, for specs that talk to the virtual
 * adbd (and later the phone and the ADB driver). Never port 5037: every call passes `-P <port>`, and the
 * server's keys and log live in a temporary home that `stop()` removes.
 */

/** The `adb` on PATH, or undefined. A few `access` checks, no process. */
export function findAdb(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'adb');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** `describe` when the real adb is installed, else `describe.skip` with the reason printed (CI installs it). */
export function describeWithRealAdb(name: string, body: () => void): void {
  if (findAdb()) {
    describe(name, body);
  } else {
    console.warn(`SKIPPED "${name}": the real adb is not on PATH (apt-get install -y adb; CI installs it).`);
    describe.skip(name, body);
  }
}

export interface AdbResult {
  /** Exit code; null when killed (timeout). */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

export interface AdbRunOptions {
  /** Bytes for adb's stdin (then closed). Without it stdin is empty and closed. */
  input?: Uint8Array | string;
  /** Default 20 s: then adb is killed and `timedOut` is true. */
  timeoutMs?: number;
}

export interface RealAdbServer {
  /** The private server's port (`adb -P port`). */
  readonly port: number;
  /** Runs `adb -P port …args` to its end. */
  run(args: string[], options?: AdbRunOptions): Promise<AdbResult>;
  /** Starts `adb -P port …args` and leaves it to the caller (kill it when done). */
  spawn(args: string[]): ChildProcess;
  /** `adb -P port kill-server`, then removes the temporary home. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (closed again at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

export async function startRealAdbServer(): Promise<RealAdbServer> {
  const adb = findAdb();
  if (!adb) throw new Error('the real adb is not on PATH');
  const home = await mkdtemp(join(tmpdir(), 'apex-adb-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    ANDROID_SDK_HOME: home,
    ANDROID_USER_HOME: home,
    TMPDIR: home, // the server's log (adb.UID.log)
    ADB_MDNS: '0',
    ADB_MDNS_OPENSCREEN: '0',
    ANDROID_ADB_SERVER_PORT: String(port),
  };
  delete env['ADB_VENDOR_KEYS'];
  delete env['ANDROID_SERIAL'];

  const spawnAdb = (args: string[]): ChildProcess =>
    spawn(adb, ['-P', String(port), ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });

  const run = (args: string[], options: AdbRunOptions = {}): Promise<AdbResult> =>
    new Promise((resolve) => {
      const child = spawnAdb(args);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs ?? 20_000);
      child.stdout?.on('data', (d: Buffer) => out.push(d));
      child.stderr?.on('data', (d: Buffer) => err.push(d));
      child.stdin?.on('error', () => undefined); // adb may exit before reading all of it
      child.on('error', (error) => err.push(Buffer.from(String(error))));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), timedOut });
      });
      child.stdin?.end(options.input === undefined ? undefined : Buffer.from(options.input));
    });

  const started = await run(['start-server']);
  if (started.code !== 0) {
    await rm(home, { recursive: true, force: true });
    throw new Error(`adb start-server failed: ${started.stderr.trim()}`);
  }
  return {
    port,
    run,
    spawn: spawnAdb,
    stop: async () => {
      await run(['kill-server'], { timeoutMs: 10_000 });
      await rm(home, { recursive: true, force: true });
    },
  };
}

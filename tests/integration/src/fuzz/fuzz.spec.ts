import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { containsStackFrame, isErrorCode } from '@apex/errors';
import { leakedWordsIn } from '@apex/errors/testing';
import { DEVICE_OPERATIONS, takesDevice, type AnyOperation } from '@apex/capability';
import { DEPRECATED_FIELDS } from '@apex/rest';
import { TASK_OPERATIONS } from '@apex/tasks';
import { startApexOverPhones, type ApexOverPhones } from '../reliability/support';
import { applyMutations, badId, BODY_SIZES, inputSchemaOf, mutation, QUERY_SIZES, validObject } from './arbitraries';
import { callMcp, callRest, faceCase, httpClient, pathFieldOf, routeOf, stringsIn } from './faces';
import type { FacedCase, Verdict } from './faces';
import { startHealthzProbe, type LatencySummary } from './healthz-probe';

/**
 * Generated bad input for every operation of the catalog, each case sent through MCP (the SDK client over
 * Streamable HTTP at /mcp) and through REST (the operation's route over real HTTP) to one Apex with a
 * virtual iPhone: 1,000 cases in `npm test`, 20,000 under `npm run test:soak`.
 *
 * Kept fast and free of lasting side effects: a case whose input is valid runs the operation's quick variant
 * (describe_screen without OCR, find_text from the UI tree only, start_task with a planner that does not
 * exist, so no task ever starts; background_app comes back at once).
 */
const SOAK = process.env.APEX_SOAK === '1';
/** `APEX_FUZZ_CASES=n` runs another number (e.g. to replay a seed quickly). */
const CASES = Number(process.env.APEX_FUZZ_CASES) || (SOAK ? 20_000 : 1_000);
/** `APEX_FUZZ_SEED=n` replays the run fast-check reported with that seed. */
const SEED = process.env.APEX_FUZZ_SEED ? Number(process.env.APEX_FUZZ_SEED) : undefined;

const OPERATIONS: readonly AnyOperation[] = [...DEVICE_OPERATIONS, ...TASK_OPERATIONS];

interface FuzzCase {
  operation: string;
  args: Record<string, unknown>;
}

/** The input, made quick and harmless when it is valid (see above); bad input is sent as generated. */
function quickVariant(op: AnyOperation, args: Record<string, unknown>): Record<string, unknown> {
  switch (op.name) {
    case 'describe_screen':
      return { ...args, includeOcrText: false };
    case 'find_text':
      return { ...args, source: 'ui-tree' };
    case 'start_task':
      return { ...args, planner: 'no-such-planner' };
    case 'background_app':
      // A valid wait would hold the phone for up to a minute: come back at once instead.
      return typeof args.seconds === 'number' && args.seconds >= 0 && args.seconds <= 60 ? { ...args, seconds: 0 } : args;
    default:
      return args;
  }
}

/** JSON as both faces carry it: NaN and ±Infinity become null, -0 becomes 0. */
function asJson(args: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
}

/** Node refuses a request head past 16 KiB (431): a GET case keeps its URL well below that. */
const MAX_URL_LENGTH = 8_000;
/** REST refuses a body past 1 MiB (413, an HTTP problem MCP has no twin for): a POST case stays below it. */
const MAX_BODY_BYTES = 1_000_000;

/** How far a case is over what its REST request may carry (≤ 0 when it fits). */
function excess(op: AnyOperation, args: Record<string, unknown>): number {
  const { rest } = faceCase(op.name, args, inputSchemaOf(op).properties);
  if (rest.method === 'GET') return rest.path.length - MAX_URL_LENGTH;
  return Buffer.byteLength(rest.body ?? '') - MAX_BODY_BYTES;
}

/**
 * The arguments with their largest entry (key or value, as JSON text) halved until the request fits. Each
 * entry is measured once per round: this runs in the server's process, so it must not hold the event loop.
 */
function fitted(op: AnyOperation, args: Record<string, unknown>): Record<string, unknown> {
  let result = args;
  while (excess(op, result) > 0) {
    const entries = Object.entries(result).map(([key, value]) => {
      const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      return { key, value, text };
    });
    const largest = entries.reduce((a, b) => (a.key.length + a.text.length >= b.key.length + b.text.length ? a : b));
    const keyIsLonger = largest.key.length > largest.text.length;
    const shortKey = keyIsLonger ? largest.key.slice(0, largest.key.length >> 1) : largest.key;
    const shortValue = keyIsLonger ? largest.value : largest.text.slice(0, largest.text.length >> 1);
    const others = entries.filter(({ key }) => key !== largest.key && key !== shortKey);
    result = Object.fromEntries([...others.map(({ key, value }) => [key, value] as const), [shortKey, shortValue]]);
  }
  return result;
}

/** A case prints as its operation and a short view of its arguments, not a megabyte of JSON. */
function described(c: FuzzCase): FuzzCase {
  const json = JSON.stringify(c.args);
  const view = json.length > 400 ? `${json.slice(0, 400)}… (${json.length} characters)` : json;
  return Object.defineProperty(c, fc.toStringMethod, { value: () => `${c.operation} ${view}`, enumerable: false });
}

function caseOf(op: AnyOperation, phone: string): fc.Arbitrary<FuzzCase> {
  const route = routeOf(op.name);
  const pathField = pathFieldOf(route);
  const sizes = route.method === 'GET' ? QUERY_SIZES : BODY_SIZES;
  const schema = inputSchemaOf(op);
  // The path field is text in a URL (mutated by `badId`); a name REST still accepts as deprecated is no unknown key.
  const fixed = new Set([...(pathField ? [pathField] : []), ...Object.keys(DEPRECATED_FIELDS)]);
  // Mostly bad input; now and then the valid input alone, so the success path and its errors are reached too.
  const mutations = fc.oneof(
    { arbitrary: fc.array(mutation(schema, sizes, fixed), { minLength: 1, maxLength: 3 }), weight: 6 },
    { arbitrary: fc.constant([]), weight: 1 },
  );
  const id =
    pathField === 'device'
      ? fc.oneof({ arbitrary: fc.constant(phone), weight: 4 }, { arbitrary: badId([phone]), weight: 1 })
      : fc.oneof(fc.uuid(), badId([]));
  return fc
    .tuple(validObject(schema), mutations, id)
    .map(([valid, changes, idValue]) => {
      const base = takesDevice(op) ? { ...valid, device: phone } : valid;
      const args = applyMutations(base, changes);
      if (pathField) args[pathField] = idValue;
      return described({ operation: op.name, args: fitted(op, asJson(args)) });
    });
}

describe(`fuzz: ${CASES} generated bad inputs through MCP and REST`, () => {
  let apex: ApexOverPhones;
  let rest: ReturnType<typeof httpClient>;
  let mcp: Client;
  let phone: string;
  const seen = new Map<string, Map<string, number>>();

  beforeAll(async () => {
    apex = await startApexOverPhones({ count: 1 });
    phone = apex.ids[0] as string;
    rest = httpClient(apex.api.url);
    mcp = new Client({ name: 'fuzz', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(apex.api.mcpUrl as string)));
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    rest?.close();
    await apex?.close();
  }, 60_000);

  /** The same call through both faces, the valid ones in their quick variant. */
  function faced(c: FuzzCase): FacedCase {
    const op = OPERATIONS.find((o) => o.name === c.operation) as AnyOperation;
    const properties = inputSchemaOf(op).properties;
    const first = faceCase(c.operation, c.args, properties);
    if (!op.input.safeParse(first.mcpArgs).success) return first;
    return faceCase(c.operation, asJson(quickVariant(op, c.args)), properties);
  }

  /** What is wrong with the two answers to one case, if anything. */
  function problemsOf(sent: FacedCase, fromMcp: Verdict, fromRest: Verdict): string[] {
    const problems: string[] = [];
    if (fromMcp.outcome !== fromRest.outcome) problems.push(`MCP answered ${fromMcp.outcome}, REST ${fromRest.outcome}`);
    for (const [face, verdict] of [['MCP', fromMcp], ['REST', fromRest]] as const) {
      if (verdict.outcome === 'internal') problems.push(`${face} answered internal`);
      else if (verdict.outcome !== 'success' && !isErrorCode(verdict.outcome)) problems.push(`${face}: ${verdict.outcome}`);
      // The client's own words may come back (an unknown key named "WDA"); anything else is a leak.
      const sentText = stringsIn(sent.mcpArgs).join('\u0000').toLowerCase();
      const sentFrame = stringsIn(sent.mcpArgs).some(containsStackFrame);
      for (const text of verdict.texts) {
        const leaked = leakedWordsIn(text).filter((word) => !sentText.includes(word.toLowerCase()));
        if (leaked.length > 0) problems.push(`${face} leaked ${leaked.join(', ')}`);
        if (!sentFrame && containsStackFrame(text)) problems.push(`${face} sent a stack frame`);
      }
    }
    if (problems.length > 0) problems.push(`MCP: ${fromMcp.shown}`, `REST: ${fromRest.shown}`);
    return problems;
  }

  function count(operation: string, outcome: string): void {
    const outcomes = seen.get(operation) ?? new Map<string, number>();
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    seen.set(operation, outcomes);
  }

  it(
    'answers each case with a success or the same semantic code on both faces, never internal, a stack or driver words, and /healthz keeps answering',
    async () => {
      const anyCase = fc.constantFrom(...OPERATIONS).chain((op) => caseOf(op, phone));
      const probe = startHealthzProbe(apex.api.url);
      let latency: LatencySummary | undefined;
      try {
        await fc.assert(
          fc.asyncProperty(anyCase, async (c) => {
            const sent = faced(c);
            // Both faces at once: the hub runs one action at a time per device, so this is one order or the other.
            const [fromMcp, fromRest] = await Promise.all([
              callMcp(mcp, c.operation, sent.mcpArgs),
              callRest(rest, sent.rest),
            ]);
            count(c.operation, fromRest.outcome);
            expect(problemsOf(sent, fromMcp, fromRest)).toEqual([]);
          }),
          { numRuns: CASES, seed: SEED },
        );
      } finally {
        latency = await probe.stop();
      }

      // Every operation was fuzzed, bad input reached each one's validation, and some calls succeeded (a replay
      // with a few cases skips this).
      if (CASES >= 1_000) {
        for (const op of OPERATIONS) {
          const outcomes = seen.get(op.name);
          expect({ [op.name]: (outcomes?.get('invalid_argument') ?? 0) > 0 }).toEqual({ [op.name]: true });
        }
        const successes = [...seen.values()].reduce((sum, outcomes) => sum + (outcomes.get('success') ?? 0), 0);
        expect(successes).toBeGreaterThan(0);
      }

      expect(latency?.failures).toBe(0);
      expect(latency?.samples).toBeGreaterThan(0);
      // How fast it answers (issue 13: p99 < 250 ms) is a figure of the bench's `flood` section, not a test:
      // a wall-clock threshold here failed on a loaded machine.
    },
    SOAK ? 3_600_000 : 300_000,
  );

  it('answers JSON nested deeper than a client library can write it (150,000 levels) with invalid_argument on both faces', async () => {
    const depth = 150_000;
    const deep = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const restAnswer = await rest.send('POST', `/devices/${phone}/tap`, `{"x":${deep},"y":1}`);
    expect(restAnswer.status).toBe(400);
    expect(JSON.parse(restAnswer.body.toString('utf8'))).toMatchObject({ code: 'invalid_argument', errors: [{ path: 'x' }] });

    const args = `{"device":"${phone}","x":${deep},"y":1}`;
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tap","arguments":${args}}}`;
    const response = await fetch(apex.api.mcpUrl as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: call,
    });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: CallToolResult };
    expect(result.isError).toBe(true);
    expect(result._meta?.['apex/error']).toMatchObject({ code: 'invalid_argument', issues: [{ path: 'x' }] });
  });

  it('serves normally afterwards, and no fuzz case started a task', async () => {
    const tasks = await rest.send('GET', '/tasks');
    expect(JSON.parse(tasks.body.toString('utf8'))).toEqual({ tasks: [] });
    const tapped = (await mcp.callTool({ name: 'tap', arguments: { x: 5, y: 30 } })) as CallToolResult;
    expect(tapped.isError).toBeFalsy();
    expect((await rest.send('POST', `/devices/${phone}/tap`, JSON.stringify({ x: 5, y: 30 }))).status).toBe(200);
    expect((await rest.send('GET', '/healthz')).status).toBe(200);
  });
});

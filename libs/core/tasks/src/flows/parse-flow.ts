import { invalidArgument, invalidInput, type FieldIssue } from '@apex/errors';
import { FLOW_LIMITS, flowSchema, type Flow, type FlowInput } from './flow-schema';
import { flowYamlThread } from './flow-yaml-reader';
import { refusedSteps } from './step-actions';

/**
 * Largest flow file read. A flow is a page of steps (200 at most, a few lines each), not a data set; the bound
 * also bounds what reading one costs (on its own thread, see flow-yaml-reader.ts).
 */
export const MAX_FLOW_YAML_BYTES = 64 * 1024;

/** Schema issues given a line and column (each costs a look-up in the document). */
const MAX_POSITIONED_ISSUES = 10;

const HINT = 'Fix the flow and run it again; nothing was run.';
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]{0,39})\}/g;

type Positions = (paths: readonly (readonly PropertyKey[])[]) => Promise<(string | undefined)[]>;

/**
 * Reads a flow from YAML: syntax and schema errors name their line and column, and a bad flow is refused as a
 * whole (never half-run). `vars` fill `${name}` in every string value, over the flow's own `vars`. The YAML is
 * composed on a worker thread: no file holds the event loop.
 */
export async function parseFlowYaml(source: string, vars: Readonly<Record<string, string>> = {}): Promise<Flow> {
  if (Buffer.byteLength(source) > MAX_FLOW_YAML_BYTES) throw invalidArgument(`The flow is larger than ${MAX_FLOW_YAML_BYTES / 1024} KB.`, undefined, HINT);
  const read = await flowYamlThread.read(source);
  if ('errors' in read) {
    const issues = read.errors.map((message): FieldIssue => ({ path: '', message }));
    throw invalidArgument(`The flow is not valid YAML: ${read.errors.join('; ')}`, issues, HINT);
  }
  return readFlow(read.value, vars, (paths) => flowYamlThread.positions(source, paths.map((path) => path.map((p) => (typeof p === 'symbol' ? String(p) : p)))));
}

/** Reads a flow given as an object (REST/MCP `flow`), with the same rules and errors (without positions). */
export async function parseFlowObject(flow: FlowInput | unknown, vars: Readonly<Record<string, string>> = {}): Promise<Flow> {
  return readFlow(flow, vars, async (paths) => paths.map(() => undefined));
}

async function readFlow(raw: unknown, vars: Readonly<Record<string, string>>, positions: Positions): Promise<Flow> {
  const steps = (raw as { steps?: unknown } | null)?.steps;
  // Refused before the schema reads every one of them.
  if (Array.isArray(steps) && steps.length > FLOW_LIMITS.maxSteps) {
    throw invalidArgument(`The flow has ${steps.length} steps; a flow has at most ${FLOW_LIMITS.maxSteps}.`, [{ path: 'steps', message: `at most ${FLOW_LIMITS.maxSteps} steps` }], 'Split it into shorter flows.');
  }
  const shaped = flowSchema.safeParse(raw);
  if (!shaped.success) {
    const at = await positions(shaped.error.issues.slice(0, MAX_POSITIONED_ISSUES).map((issue) => issue.path));
    const issues = shaped.error.issues.map((issue, i) => (at[i] ? { ...issue, message: `${at[i]}: ${issue.message}` } : issue));
    throw invalidInput(issues, 'flow', HINT);
  }
  const values = { ...shaped.data.vars, ...vars };
  const missing = new Set<string>();
  const { vars: _own, ...rest } = raw as Record<string, unknown>;
  const filled = { ...(fillVariables(rest, values, missing) as Record<string, unknown>) };
  if (missing.size > 0) {
    throw invalidArgument(`The flow uses variables with no value: ${[...missing].slice(0, 10).join(', ')}.`, undefined, 'Give them with vars (the CLI: --var name=value) or in the flow\'s own vars.');
  }
  // Parsed again with the values in place: a variable may fill a field with a bound (text length, a URL).
  const parsed = flowSchema.safeParse(filled);
  if (!parsed.success) throw invalidInput(parsed.error.issues, 'flow (with its variables filled)', HINT);
  const refused = refusedSteps(parsed.data);
  if (refused.length > 0) {
    const at = await positions(refused.slice(0, MAX_POSITIONED_ISSUES).map((step) => step.path));
    const issues = refused.flatMap((step, i) =>
      step.issues.map((issue): FieldIssue => ({
        path: [...step.path, issue.path].filter((p) => p !== '').join('.'),
        message: `${at[i] ? `${at[i]}: ` : ''}${step.name}: ${issue.path ? `${issue.path} ` : ''}${issue.message}`,
      })),
    );
    throw invalidArgument(`The flow has steps that cannot run: ${issues.slice(0, 5).map((issue) => issue.message).join('; ')}`, issues, HINT);
  }
  return parsed.data;
}

function fillVariables(value: unknown, vars: Readonly<Record<string, string>>, missing: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (whole, name: string) => {
      if (Object.prototype.hasOwnProperty.call(vars, name)) return vars[name] as string;
      missing.add(name);
      return whole;
    });
  }
  if (Array.isArray(value)) return value.map((v) => fillVariables(v, vars, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillVariables(v, vars, missing)]));
  }
  return value;
}

import { invalidArgument, invalidInput, type FieldIssue } from '@apex/errors';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { flowSchema, type Flow, type FlowInput } from './flow-schema';

/** Largest flow file read (a flow is a page of steps, not a data set). */
export const MAX_FLOW_YAML_BYTES = 256 * 1024;

const HINT = 'Fix the flow and run it again; nothing was run.';
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]{0,39})\}/g;

/**
 * Reads a flow from YAML: syntax and schema errors name their line and column, and a bad flow is refused as a
 * whole (never half-run). `vars` fill `${name}` in every string value, over the flow's own `vars`.
 */
export function parseFlowYaml(source: string, vars: Readonly<Record<string, string>> = {}): Flow {
  if (Buffer.byteLength(source) > MAX_FLOW_YAML_BYTES) throw invalidArgument(`The flow is larger than ${MAX_FLOW_YAML_BYTES / 1024} KB.`, undefined, HINT);
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const issues = doc.errors.slice(0, 5).map((e): FieldIssue => {
      const at = lines.linePos(e.pos[0]);
      return { path: '', message: `line ${at.line}, column ${at.col}: ${firstLine(e.message)}` };
    });
    throw invalidArgument(`The flow is not valid YAML: ${issues.map((i) => i.message).join('; ')}`, issues, HINT);
  }
  return readFlow(doc.toJS({ maxAliasCount: 50 }) as unknown, vars, (path) => positionOf(doc, lines, path));
}

/** Reads a flow given as an object (REST/MCP `flow`), with the same rules and errors (without positions). */
export function parseFlowObject(flow: FlowInput | unknown, vars: Readonly<Record<string, string>> = {}): Flow {
  return readFlow(flow, vars, () => undefined);
}

function readFlow(raw: unknown, vars: Readonly<Record<string, string>>, position: (path: readonly PropertyKey[]) => string | undefined): Flow {
  const shaped = flowSchema.safeParse(raw);
  if (!shaped.success) {
    const issues = shaped.error.issues.map((issue) => {
      const at = position(issue.path);
      return { ...issue, message: at ? `${at}: ${issue.message}` : issue.message };
    });
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

/** "line L, column C" of the deepest node of the document the path reaches. */
function positionOf(doc: Document, lines: LineCounter, path: readonly PropertyKey[]): string | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth).map((p) => (typeof p === 'symbol' ? String(p) : p)) as (string | number)[], true);
    if (isNode(node) && node.range) {
      const at = lines.linePos(node.range[0]);
      return `line ${at.line}, column ${at.col}`;
    }
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.slice(0, 200) ?? message;
}


import { TYPE_PREFIX } from '../attributes';
import { descendants, type TreeNode } from '../tree';
import { evaluatePredicate, parsePredicate, type Predicate } from './predicate';

/**
 * A subset of WDA's class chain queries: `/`-separated steps of `XCUIElementTypeX` or `*`, `**` for any depth,
 * each step filtered by `[n]` (1-based, negative from the end), `` [`predicate`] `` and `[$predicate$]`
 * (has a descendant matching). As with XCUIElementQuery, an index applies to all matches of the step.
 */

export class ClassChainSyntaxError extends Error {}

type Filter = { kind: 'index'; index: number } | { kind: 'predicate'; predicate: Predicate } | { kind: 'descendant'; predicate: Predicate };

interface Step {
  /** Search all descendants (after `**`) rather than direct children. */
  deep: boolean;
  /** Short type name, or null for `*`. */
  type: string | null;
  filters: Filter[];
}

function parsePredicateText(text: string): Predicate {
  try {
    return parsePredicate(text);
  } catch (error) {
    throw new ClassChainSyntaxError(`bad predicate '${text}': ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function parseClassChain(query: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  let deep = false;
  const expectStepEnd = () => {
    if (i < query.length) {
      if (query[i] !== '/') throw new ClassChainSyntaxError(`unexpected '${query[i]}' at ${i}`);
      i++;
      if (i >= query.length) throw new ClassChainSyntaxError('the query ends with /');
    }
  };
  while (i < query.length) {
    if (query.startsWith('**', i)) {
      if (deep) throw new ClassChainSyntaxError('two ** in a row');
      deep = true;
      i += 2;
      if (i >= query.length) throw new ClassChainSyntaxError('** must be followed by a step');
      expectStepEnd();
      continue;
    }
    const name = /^(\*|XCUIElementType[A-Za-z]+)/.exec(query.slice(i));
    if (!name) throw new ClassChainSyntaxError(`expected XCUIElementType… or * at ${i}`);
    i += (name[0] as string).length;
    const filters: Filter[] = [];
    while (query[i] === '[') {
      const rest = query.slice(i);
      const index = /^\[\s*(-?\d+)\s*\]/.exec(rest);
      if (index) {
        const n = Number(index[1]);
        if (n === 0) throw new ClassChainSyntaxError('indices start at 1');
        filters.push({ kind: 'index', index: n });
        i += (index[0] as string).length;
        continue;
      }
      const quoted = /^\[(`|\$)([\s\S]*?)\1\]/.exec(rest);
      if (!quoted) throw new ClassChainSyntaxError(`bad filter at ${i}`);
      const predicate = parsePredicateText(quoted[2] as string);
      filters.push({ kind: quoted[1] === '$' ? 'descendant' : 'predicate', predicate });
      i += (quoted[0] as string).length;
    }
    const typeName = name[0] as string;
    steps.push({ deep, type: typeName === '*' ? null : typeName.slice(TYPE_PREFIX.length), filters });
    deep = false;
    expectStepEnd();
  }
  if (steps.length === 0) throw new ClassChainSyntaxError('empty query');
  return steps;
}

export function evaluateClassChain(steps: Step[], root: TreeNode): TreeNode[] {
  let context: TreeNode[] = [root];
  for (const step of steps) {
    const seen = new Set<TreeNode>();
    let matches: TreeNode[] = [];
    for (const node of context) {
      const candidates = step.deep ? [...descendants(node)] : node.children;
      for (const candidate of candidates) {
        if (seen.has(candidate)) continue;
        if (step.type !== null && candidate.element.type !== step.type) continue;
        seen.add(candidate);
        matches.push(candidate);
      }
    }
    matches.sort((a, b) => a.order - b.order);
    for (const filter of step.filters) {
      if (filter.kind === 'index') {
        const position = filter.index > 0 ? filter.index - 1 : matches.length + filter.index;
        const picked = matches[position];
        matches = picked ? [picked] : [];
      } else if (filter.kind === 'predicate') {
        matches = matches.filter((node) => evaluatePredicate(filter.predicate, node.element));
      } else {
        matches = matches.filter((node) => [...descendants(node)].some((d) => evaluatePredicate(filter.predicate, d.element)));
      }
    }
    context = matches;
  }
  return context;
}

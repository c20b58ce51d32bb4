/**
 * A compact XPath 1.0 evaluator over WDA's XML page source (the same attributes `/source` prints).
 * Supported: absolute and relative location paths, `//`, the axes child, descendant, descendant-or-self, self,
 * parent, ancestor, ancestor-or-self, following-sibling, preceding-sibling, `.`, `..`, `*`, `node()`,
 * `@attr`, predicates (positional and boolean), `and`/`or`, = != < > <= >=, unions with `|`, grouping with
 * `( … )[n]`, and the functions contains, starts-with, ends-with, not, last, position, count, string,
 * string-length, normalize-space, concat, true, false. Anything else is a syntax error (→ invalid selector).
 */

export class XPathSyntaxError extends Error {}

/** A node of the XML document the expression runs on. */
export interface XNode {
  name: string;
  attributes: ReadonlyMap<string, string>;
  children: XNode[];
  parent: XNode | null;
  /** Document order. */
  order: number;
}

type Value = XNode[] | { attributes: string[] } | string | number | boolean;

type Ast =
  | { kind: 'path'; absolute: boolean; start?: Ast; steps: StepAst[] }
  | { kind: 'filter'; primary: Ast; predicates: Ast[] }
  | { kind: 'union'; left: Ast; right: Ast }
  | { kind: 'binary'; op: string; left: Ast; right: Ast }
  | { kind: 'negate'; operand: Ast }
  | { kind: 'literal'; value: string | number }
  | { kind: 'call'; name: string; args: Ast[] };

interface StepAst {
  axis: string;
  /** Element name, '*' or 'node()'; for the attribute axis the attribute name or '*'. */
  test: string;
  predicates: Ast[];
}

const AXES = new Set(['child', 'descendant', 'descendant-or-self', 'self', 'parent', 'ancestor', 'ancestor-or-self', 'following-sibling', 'preceding-sibling', 'attribute']);
const FUNCTIONS = new Set(['contains', 'starts-with', 'ends-with', 'not', 'last', 'position', 'count', 'string', 'string-length', 'normalize-space', 'concat', 'true', 'false']);

interface Token {
  type: 'name' | 'string' | 'number' | 'sym';
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\/\/|::|\.\.|!=|<=|>=|[/[\]()@,|=<>*.+-])|("[^"]*"|'[^']*')|(\d+(?:\.\d*)?|\.\d+)|([A-Za-z_][\w.-]*(?:\(\))?))/y;
  let pos = 0;
  while (pos < source.length) {
    if (/^\s*$/.test(source.slice(pos))) break;
    re.lastIndex = pos;
    const match = re.exec(source);
    if (!match) throw new XPathSyntaxError(`unexpected character at ${pos}`);
    pos = re.lastIndex;
    if (match[1] !== undefined) tokens.push({ type: 'sym', text: match[1] });
    else if (match[2] !== undefined) tokens.push({ type: 'string', text: match[2].slice(1, -1) });
    else if (match[3] !== undefined) tokens.push({ type: 'number', text: match[3] });
    else tokens.push({ type: 'name', text: match[4] as string });
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Ast {
    if (this.tokens.length === 0) throw new XPathSyntaxError('empty expression');
    const ast = this.parseOr();
    if (this.pos < this.tokens.length) throw new XPathSyntaxError(`unexpected '${this.tokens[this.pos]?.text}'`);
    return ast;
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }

  private isSym(text: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.type === 'sym' && token.text === text;
  }

  private isName(text: string): boolean {
    const token = this.peek();
    return token?.type === 'name' && token.text === text;
  }

  private expect(text: string): void {
    if (!this.isSym(text)) throw new XPathSyntaxError(`expected '${text}'`);
    this.pos++;
  }

  private parseOr(): Ast {
    let left = this.parseAnd();
    while (this.isName('or')) {
      this.pos++;
      left = { kind: 'binary', op: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Ast {
    let left = this.parseEquality();
    while (this.isName('and')) {
      this.pos++;
      left = { kind: 'binary', op: 'and', left, right: this.parseEquality() };
    }
    return left;
  }

  private parseEquality(): Ast {
    let left = this.parseRelational();
    while (this.isSym('=') || this.isSym('!=')) {
      const op = (this.peek() as Token).text;
      this.pos++;
      left = { kind: 'binary', op, left, right: this.parseRelational() };
    }
    return left;
  }

  private parseRelational(): Ast {
    let left = this.parseUnary();
    while (this.isSym('<') || this.isSym('>') || this.isSym('<=') || this.isSym('>=')) {
      const op = (this.peek() as Token).text;
      this.pos++;
      left = { kind: 'binary', op, left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): Ast {
    if (this.isSym('-')) {
      this.pos++;
      return { kind: 'negate', operand: this.parseUnary() };
    }
    return this.parseUnion();
  }

  private parseUnion(): Ast {
    let left = this.parsePath();
    while (this.isSym('|')) {
      this.pos++;
      left = { kind: 'union', left, right: this.parsePath() };
    }
    return left;
  }

  private startsPrimary(): boolean {
    const token = this.peek();
    if (!token) return false;
    if (token.type === 'string' || token.type === 'number' || this.isSym('(')) return true;
    if (token.type !== 'name') return false;
    if (token.text.endsWith('()')) return FUNCTIONS.has(token.text.slice(0, -2));
    return FUNCTIONS.has(token.text) && this.isSym('(', 1);
  }

  private parsePath(): Ast {
    if (this.startsPrimary()) {
      const primary = this.parsePrimary();
      const predicates = this.parsePredicates();
      const filter: Ast = predicates.length > 0 ? { kind: 'filter', primary, predicates } : primary;
      if (this.isSym('/') || this.isSym('//')) return { kind: 'path', absolute: false, start: filter, steps: this.parseSteps(true) };
      return filter;
    }
    if (this.isSym('/')) {
      this.pos++;
      const token = this.peek();
      const stepFollows = token !== undefined && (token.type === 'name' || this.isSym('*') || this.isSym('@') || this.isSym('.') || this.isSym('..'));
      return { kind: 'path', absolute: true, steps: stepFollows ? this.parseSteps(false) : [] };
    }
    if (this.isSym('//')) return { kind: 'path', absolute: true, steps: this.parseSteps(true) };
    return { kind: 'path', absolute: false, steps: this.parseSteps(false) };
  }

  /** Steps separated by / or //; `leadingSeparator` means the next token is a separator. */
  private parseSteps(leadingSeparator: boolean): StepAst[] {
    const steps: StepAst[] = [];
    let needSeparator = leadingSeparator;
    for (;;) {
      if (needSeparator) {
        if (this.isSym('//')) {
          this.pos++;
          steps.push({ axis: 'descendant-or-self', test: 'node()', predicates: [] });
        } else if (this.isSym('/')) {
          this.pos++;
        } else {
          break;
        }
      }
      steps.push(this.parseStep());
      needSeparator = true;
    }
    return steps;
  }

  private parseStep(): StepAst {
    if (this.isSym('.')) {
      this.pos++;
      return { axis: 'self', test: 'node()', predicates: [] };
    }
    if (this.isSym('..')) {
      this.pos++;
      return { axis: 'parent', test: 'node()', predicates: [] };
    }
    let axis = 'child';
    if (this.isSym('@')) {
      this.pos++;
      axis = 'attribute';
    } else if (this.peek()?.type === 'name' && this.isSym('::', 1)) {
      axis = (this.peek() as Token).text;
      if (!AXES.has(axis)) throw new XPathSyntaxError(`unsupported axis '${axis}'`);
      this.pos += 2;
    }
    const token = this.peek();
    let test: string;
    if (this.isSym('*')) test = '*';
    else if (token?.type === 'name' && (!token.text.endsWith('()') || token.text === 'node()')) test = token.text;
    else throw new XPathSyntaxError('expected a node test');
    this.pos++;
    return { axis, test, predicates: this.parsePredicates() };
  }

  private parsePredicates(): Ast[] {
    const predicates: Ast[] = [];
    while (this.isSym('[')) {
      this.pos++;
      predicates.push(this.parseOr());
      this.expect(']');
    }
    return predicates;
  }

  private parsePrimary(): Ast {
    const token = this.peek() as Token;
    this.pos++;
    if (token.type === 'string') return { kind: 'literal', value: token.text };
    if (token.type === 'number') return { kind: 'literal', value: Number(token.text) };
    if (token.type === 'sym' && token.text === '(') {
      const inner = this.parseOr();
      this.expect(')');
      return inner;
    }
    if (token.text.endsWith('()')) return { kind: 'call', name: token.text.slice(0, -2), args: [] };
    this.expect('(');
    const args: Ast[] = [];
    if (!this.isSym(')')) {
      args.push(this.parseOr());
      while (this.isSym(',')) {
        this.pos++;
        args.push(this.parseOr());
      }
    }
    this.expect(')');
    return { kind: 'call', name: token.text, args };
  }
}

export type CompiledXPath = Ast;

export function compileXPath(source: string): CompiledXPath {
  return new Parser(tokenize(source)).parse();
}

interface Context {
  node: XNode;
  position: number;
  size: number;
  document: XNode;
}

function axisNodes(node: XNode, axis: string): XNode[] {
  switch (axis) {
    case 'child':
      return node.children;
    case 'self':
      return [node];
    case 'parent':
      return node.parent ? [node.parent] : [];
    case 'descendant':
    case 'descendant-or-self': {
      const result: XNode[] = axis === 'descendant-or-self' ? [node] : [];
      const walk = (n: XNode) => {
        for (const child of n.children) {
          result.push(child);
          walk(child);
        }
      };
      walk(node);
      return result;
    }
    case 'ancestor':
    case 'ancestor-or-self': {
      const result: XNode[] = axis === 'ancestor-or-self' ? [node] : [];
      for (let p = node.parent; p; p = p.parent) result.push(p);
      return result;
    }
    case 'following-sibling':
    case 'preceding-sibling': {
      const siblings = node.parent?.children ?? [];
      const at = siblings.indexOf(node);
      return axis === 'following-sibling' ? siblings.slice(at + 1) : siblings.slice(0, at).reverse();
    }
    default:
      throw new XPathSyntaxError(`unsupported axis '${axis}'`);
  }
}

function sortUnique(nodes: XNode[]): XNode[] {
  return [...new Set(nodes)].sort((a, b) => a.order - b.order);
}

function toStringValue(value: Value): string {
  if (Array.isArray(value)) return '';
  if (typeof value === 'object') return value.attributes[0] ?? '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

function toNumber(value: Value): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  const text = toStringValue(value).trim();
  return text === '' ? NaN : Number(text);
}

function toBoolean(value: Value): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return value.attributes.length > 0;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value.length > 0;
  return value;
}

/** The strings a value compares as: each attribute of a set, each element ('' — WDA's XML has no text). */
function comparableStrings(value: Value): string[] | null {
  if (Array.isArray(value)) return value.map(() => '');
  if (typeof value === 'object') return value.attributes;
  return null;
}

function compareValues(op: string, left: Value, right: Value): boolean {
  const cmp = (a: string | number | boolean, b: string | number | boolean): boolean => {
    if (op === '=' || op === '!=') {
      let equal: boolean;
      if (typeof a === 'boolean' || typeof b === 'boolean') equal = Boolean(a) === Boolean(b);
      else if (typeof a === 'number' || typeof b === 'number') equal = Number(a) === Number(b);
      else equal = a === b;
      return op === '=' ? equal : !equal;
    }
    const x = Number(a);
    const y = Number(b);
    return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
  };
  const ls = comparableStrings(left);
  const rs = comparableStrings(right);
  if (ls && rs) return ls.some((a) => rs.some((b) => cmp(a, b)));
  if (ls) return ls.some((a) => cmp(typeof right === 'boolean' ? ls.length > 0 : a, right as string | number | boolean));
  if (rs) return rs.some((b) => cmp(left as string | number | boolean, typeof left === 'boolean' ? rs.length > 0 : b));
  return cmp(left as string | number | boolean, right as string | number | boolean);
}

function applyPredicates(nodes: XNode[], predicates: Ast[], document: XNode): XNode[] {
  let current = nodes;
  for (const predicate of predicates) {
    const size = current.length;
    current = current.filter((node, i) => {
      const result = evaluate(predicate, { node, position: i + 1, size, document });
      return typeof result === 'number' ? result === i + 1 : toBoolean(result);
    });
  }
  return current;
}

function evaluateSteps(start: XNode[], steps: StepAst[], document: XNode): Value {
  let nodes = start;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s] as StepAst;
    if (step.axis === 'attribute') {
      if (s !== steps.length - 1) throw new XPathSyntaxError('an attribute step must be the last');
      const values: string[] = [];
      for (const node of nodes) {
        if (step.test === '*') values.push(...node.attributes.values());
        else if (node.attributes.has(step.test)) values.push(node.attributes.get(step.test) as string);
      }
      return { attributes: values };
    }
    const next: XNode[] = [];
    for (const node of nodes) {
      const candidates = axisNodes(node, step.axis).filter((n) => step.test === '*' || step.test === 'node()' || n.name === step.test);
      next.push(...applyPredicates(candidates.filter((n) => step.test === 'node()' || n !== document), step.predicates, document));
    }
    nodes = sortUnique(next);
  }
  return nodes;
}

function asNodes(value: Value): XNode[] {
  if (!Array.isArray(value)) throw new XPathSyntaxError('the expression does not select nodes');
  return value;
}

function evaluate(ast: Ast, context: Context): Value {
  switch (ast.kind) {
    case 'literal':
      return ast.value;
    case 'path': {
      const start = ast.start ? asNodes(evaluate(ast.start, context)) : [ast.absolute ? context.document : context.node];
      return evaluateSteps(start, ast.steps, context.document);
    }
    case 'filter':
      return applyPredicates(asNodes(evaluate(ast.primary, context)), ast.predicates, context.document);
    case 'union':
      return sortUnique([...asNodes(evaluate(ast.left, context)), ...asNodes(evaluate(ast.right, context))]);
    case 'negate':
      return -toNumber(evaluate(ast.operand, context));
    case 'binary': {
      if (ast.op === 'or') return toBoolean(evaluate(ast.left, context)) || toBoolean(evaluate(ast.right, context));
      if (ast.op === 'and') return toBoolean(evaluate(ast.left, context)) && toBoolean(evaluate(ast.right, context));
      return compareValues(ast.op, evaluate(ast.left, context), evaluate(ast.right, context));
    }
    case 'call':
      return callFunction(ast.name, ast.args.map((arg) => evaluate(arg, context)), context);
  }
}

function callFunction(name: string, args: Value[], context: Context): Value {
  const arity = (min: number, max = min) => {
    if (args.length < min || args.length > max) throw new XPathSyntaxError(`${name}() takes ${min === max ? min : `${min}-${max}`} arguments`);
  };
  const str = (i: number) => toStringValue(args[i] as Value);
  switch (name) {
    case 'contains':
      arity(2);
      return str(0).includes(str(1));
    case 'starts-with':
      arity(2);
      return str(0).startsWith(str(1));
    case 'ends-with':
      arity(2);
      return str(0).endsWith(str(1));
    case 'not':
      arity(1);
      return !toBoolean(args[0] as Value);
    case 'last':
      arity(0);
      return context.size;
    case 'position':
      arity(0);
      return context.position;
    case 'count': {
      arity(1);
      const value = args[0] as Value;
      return Array.isArray(value) ? value.length : typeof value === 'object' ? value.attributes.length : NaN;
    }
    case 'string':
      arity(0, 1);
      return args.length ? str(0) : '';
    case 'string-length':
      arity(0, 1);
      return args.length ? str(0).length : 0;
    case 'normalize-space':
      arity(0, 1);
      return (args.length ? str(0) : '').trim().replace(/\s+/g, ' ');
    case 'concat':
      if (args.length < 2) throw new XPathSyntaxError('concat() takes at least 2 arguments');
      return args.map((_, i) => str(i)).join('');
    case 'true':
      arity(0);
      return true;
    case 'false':
      arity(0);
      return false;
    default:
      throw new XPathSyntaxError(`unsupported function '${name}()'`);
  }
}

/** Runs a compiled expression; the result must be a node set. */
export function selectNodes(xpath: CompiledXPath, document: XNode, contextNode: XNode): XNode[] {
  return asNodes(evaluate(xpath, { node: contextNode, position: 1, size: 1, document })).filter((n) => n !== document);
}

import type { PhoneElement } from '../../model';
import { integralRect, wdLabel, wdName, wdPlaceholder, wdType, wdValue } from '../attributes';

/**
 * A useful subset of NSPredicate, as WDA evaluates it against an element's wd* attributes:
 * comparisons (==, !=, <, >, <=, >=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, MATCHES, IN) with [c]/[d]/[cd],
 * AND/OR/NOT (&&, ||, !), parentheses, strings in either quote, numbers, booleans, nil, TRUEPREDICATE.
 */

export class PredicateSyntaxError extends Error {}

type Literal = string | number | boolean | null | Literal[];

type Expr =
  | { kind: 'const'; value: boolean }
  | { kind: 'not'; operand: Expr }
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'compare'; key: string; op: string; caseless: boolean; diacriticless: boolean; value: Literal; negate: boolean };

interface Token {
  type: 'ident' | 'string' | 'number' | 'op' | 'punct' | 'modifier';
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"' || c === "'") {
      let text = '';
      i++;
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\' && i + 1 < source.length) i++;
        text += source[i];
        i++;
      }
      if (i >= source.length) throw new PredicateSyntaxError('unterminated string');
      i++;
      tokens.push({ type: 'string', text });
    } else if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const match = /^-?\d+(\.\d+)?/.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'number', text: match[0] });
      i += match[0].length;
    } else if (/[A-Za-z_$@#]/.test(c)) {
      const match = /^[A-Za-z_$@#][\w.$@]*/.exec(source.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'ident', text: match[0] });
      i += match[0].length;
    } else if (c === '[') {
      const match = /^\[\s*([cdnCDN]+)\s*\]/.exec(source.slice(i));
      if (!match) throw new PredicateSyntaxError(`unexpected '[' at ${i}`);
      tokens.push({ type: 'modifier', text: (match[1] as string).toLowerCase() });
      i += match[0].length;
    } else {
      const two = source.slice(i, i + 2);
      if (['==', '!=', '<>', '<=', '>=', '=<', '=>', '&&', '||'].includes(two)) {
        tokens.push({ type: 'op', text: two });
        i += 2;
      } else if ('=<>!'.includes(c)) {
        tokens.push({ type: 'op', text: c });
        i++;
      } else if ('(){},'.includes(c)) {
        tokens.push({ type: 'punct', text: c });
        i++;
      } else {
        throw new PredicateSyntaxError(`unexpected '${c}' at ${i}`);
      }
    }
  }
  return tokens;
}

const WORD_OPERATORS = new Set(['CONTAINS', 'BEGINSWITH', 'ENDSWITH', 'LIKE', 'MATCHES', 'IN']);

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const expr = this.parseOr();
    if (this.pos < this.tokens.length) throw new PredicateSyntaxError(`unexpected '${this.tokens[this.pos]?.text}'`);
    return expr;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private next(): Token {
    const token = this.tokens[this.pos++];
    if (!token) throw new PredicateSyntaxError('unexpected end of predicate');
    return token;
  }

  private isWord(word: string): boolean {
    const token = this.peek();
    return token?.type === 'ident' && token.text.toUpperCase() === word;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isWord('OR') || this.peek()?.text === '||') {
      this.pos++;
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseUnary();
    while (this.isWord('AND') || this.peek()?.text === '&&') {
      this.pos++;
      left = { kind: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): Expr {
    if (this.isWord('NOT') || (this.peek()?.type === 'op' && this.peek()?.text === '!')) {
      this.pos++;
      return { kind: 'not', operand: this.parseUnary() };
    }
    if (this.peek()?.text === '(') {
      this.pos++;
      const inner = this.parseOr();
      if (this.next().text !== ')') throw new PredicateSyntaxError("expected ')'");
      return inner;
    }
    if (this.isWord('TRUEPREDICATE')) {
      this.pos++;
      return { kind: 'const', value: true };
    }
    if (this.isWord('FALSEPREDICATE')) {
      this.pos++;
      return { kind: 'const', value: false };
    }
    return this.parseComparison();
  }

  private parseComparison(): Expr {
    const keyToken = this.next();
    if (keyToken.type !== 'ident') throw new PredicateSyntaxError(`expected a key, got '${keyToken.text}'`);
    let negate = false;
    if (this.isWord('NOT')) {
      negate = true;
      this.pos++;
    }
    const opToken = this.next();
    let op: string;
    if (opToken.type === 'op') {
      op = { '=': '==', '<>': '!=', '=<': '<=', '=>': '>=' }[opToken.text] ?? opToken.text;
      if (op === '!' || op === '&&' || op === '||') throw new PredicateSyntaxError(`unexpected '${op}'`);
    } else if (opToken.type === 'ident' && WORD_OPERATORS.has(opToken.text.toUpperCase())) {
      op = opToken.text.toUpperCase();
    } else {
      throw new PredicateSyntaxError(`expected an operator after '${keyToken.text}'`);
    }
    let caseless = false;
    let diacriticless = false;
    if (this.peek()?.type === 'modifier') {
      const modifier = this.next().text;
      caseless = modifier.includes('c');
      diacriticless = modifier.includes('d');
    }
    return { kind: 'compare', key: keyToken.text, op, caseless, diacriticless, value: this.parseLiteral(), negate };
  }

  private parseLiteral(): Literal {
    const token = this.next();
    if (token.type === 'string') return token.text;
    if (token.type === 'number') return Number(token.text);
    if (token.type === 'punct' && token.text === '{') {
      const items: Literal[] = [];
      while (this.peek()?.text !== '}') {
        items.push(this.parseLiteral());
        if (this.peek()?.text === ',') this.pos++;
        else if (this.peek()?.text !== '}') throw new PredicateSyntaxError("expected ',' or '}'");
      }
      this.pos++;
      return items;
    }
    if (token.type === 'ident') {
      const word = token.text.toUpperCase();
      if (word === 'TRUE' || word === 'YES') return true;
      if (word === 'FALSE' || word === 'NO') return false;
      if (word === 'NIL' || word === 'NULL') return null;
    }
    throw new PredicateSyntaxError(`expected a value, got '${token.text}'`);
  }
}

export function parsePredicate(source: string): Expr {
  return new Parser(tokenize(source)).parse();
}

export class UnknownKeyError extends Error {}

type KeyValue = string | number | boolean | null;

/** The element attribute a predicate key names (WDA maps `name` to wdName, `label` to wdLabel, …). */
function keyValue(element: PhoneElement, key: string): KeyValue {
  const bare = key.replace(/^wd/, '').replace(/^is(?=[A-Z])/, '');
  switch (bare.toLowerCase()) {
    case 'name':
      return wdName(element);
    case 'label':
      return wdLabel(element);
    case 'value':
      return wdValue(element);
    case 'type':
    case 'elementtype':
      return wdType(element);
    case 'identifier':
    case 'rawidentifier':
      return element.identifier ?? '';
    case 'placeholdervalue':
      return wdPlaceholder(element);
    case 'enabled':
      return element.enabled;
    case 'visible':
    case 'displayed':
      return element.visible;
    case 'accessible':
      return element.accessible;
    case 'selected':
      return element.selected;
    case 'focused':
    case 'hasfocus':
      return element.focused;
    case 'hittable':
      return element.visible && element.enabled;
    case 'traits':
      return element.traits.join(', ');
    case 'x':
      return integralRect(element.rect).x;
    case 'y':
      return integralRect(element.rect).y;
    case 'width':
      return integralRect(element.rect).width;
    case 'height':
      return integralRect(element.rect).height;
    default:
      throw new UnknownKeyError(`[<XCElementSnapshot> valueForUndefinedKey:]: the entity is not key value coding-compliant for the key "${key}".`);
  }
}

function fold(text: string, caseless: boolean, diacriticless: boolean): string {
  let result = text;
  if (diacriticless) result = result.normalize('NFD').replace(/\p{M}/gu, '');
  if (caseless) result = result.toLowerCase();
  return result;
}

function likeToRegExp(pattern: string, flags: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, flags);
}

function equalValues(actual: KeyValue, expected: Literal, caseless: boolean, diacriticless: boolean): boolean {
  if (expected === null || actual === null) return actual === expected;
  if (typeof actual === 'boolean') {
    if (typeof expected === 'boolean') return actual === expected;
    if (typeof expected === 'number') return Number(actual) === expected;
    return false;
  }
  if (typeof actual === 'number') return Number(expected) === actual;
  if (Array.isArray(expected)) return false;
  return fold(actual, caseless, diacriticless) === fold(String(expected), caseless, diacriticless);
}

function compare(actual: KeyValue, expr: Extract<Expr, { kind: 'compare' }>): boolean {
  const { op, caseless, diacriticless, value } = expr;
  switch (op) {
    case '==':
      return equalValues(actual, value, caseless, diacriticless);
    case '!=':
      return !equalValues(actual, value, caseless, diacriticless);
    case 'IN':
      return Array.isArray(value) ? value.some((item) => equalValues(actual, item, caseless, diacriticless)) : false;
    case '<':
    case '>':
    case '<=':
    case '>=': {
      if (actual === null || value === null || Array.isArray(value)) return false;
      const a = typeof actual === 'string' ? actual : Number(actual);
      const b = typeof actual === 'string' ? String(value) : Number(value);
      return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
    }
    default: {
      if (actual === null || value === null || Array.isArray(value)) return false;
      const text = fold(String(actual), caseless, diacriticless);
      const needle = fold(String(value), caseless, diacriticless);
      switch (op) {
        case 'CONTAINS':
          return text.includes(needle);
        case 'BEGINSWITH':
          return text.startsWith(needle);
        case 'ENDSWITH':
          return text.endsWith(needle);
        case 'LIKE':
          return likeToRegExp(needle, 's').test(text);
        case 'MATCHES':
          return new RegExp(`^(?:${needle})$`, 's').test(text);
        default:
          return false;
      }
    }
  }
}

export function evaluatePredicate(expr: Expr, element: PhoneElement): boolean {
  switch (expr.kind) {
    case 'const':
      return expr.value;
    case 'not':
      return !evaluatePredicate(expr.operand, element);
    case 'and':
      return evaluatePredicate(expr.left, element) && evaluatePredicate(expr.right, element);
    case 'or':
      return evaluatePredicate(expr.left, element) || evaluatePredicate(expr.right, element);
    case 'compare': {
      const result = compare(keyValue(element, expr.key), expr);
      return expr.negate ? !result : result;
    }
  }
}

export type Predicate = Expr;

import { TYPE_PREFIX, wdName, wdLabel, wdValue, wdType } from '../attributes';
import { xmlAttributes } from '../source-xml';
import { selfAndDescendants, type TreeNode, type UiTree } from '../tree';
import { invalidArgument, invalidSelector, unknownError } from '../wda-error';
import type { ElementType, PhoneElement } from '../../model';
import { ClassChainSyntaxError, evaluateClassChain, parseClassChain } from './class-chain';
import { evaluatePredicate, parsePredicate, PredicateSyntaxError, UnknownKeyError } from './predicate';
import { compileXPath, selectNodes, XPathSyntaxError, type XNode } from './xpath';

/** Element finding by WDA's locator strategies (WDA:Commands/FBFindElementCommands.m). */

const KNOWN_TYPES: ReadonlySet<string> = new Set<ElementType>([
  'Application', 'Window', 'Other', 'Button', 'StaticText', 'TextField', 'SecureTextField', 'SearchField', 'TextView',
  'Switch', 'Slider', 'Cell', 'Table', 'CollectionView', 'ScrollView', 'Image', 'Icon', 'Link', 'WebView', 'Keyboard',
  'Key', 'Alert', 'NavigationBar', 'TabBar', 'Toolbar', 'StatusBar',
]);

function matching(context: TreeNode, test: (element: PhoneElement) => boolean): TreeNode[] {
  const result: TreeNode[] = [];
  for (const node of selfAndDescendants(context)) if (test(node.element)) result.push(node);
  return result;
}

function byPredicate(context: TreeNode, source: string): TreeNode[] {
  let predicate;
  try {
    predicate = parsePredicate(source);
  } catch (error) {
    if (error instanceof PredicateSyntaxError) throw unknownError(`Unable to parse the format string "${source}"`);
    throw error;
  }
  try {
    return matching(context, (element) => evaluatePredicate(predicate, element));
  } catch (error) {
    if (error instanceof UnknownKeyError) throw unknownError(error.message);
    throw error;
  }
}

function byClassChain(context: TreeNode, source: string): TreeNode[] {
  try {
    return evaluateClassChain(parseClassChain(source), context);
  } catch (error) {
    if (error instanceof ClassChainSyntaxError) throw invalidSelector(`Cannot parse class chain query '${source}': ${error.message}`);
    if (error instanceof UnknownKeyError) throw unknownError(error.message);
    throw error;
  }
}

/** The XML document XPath runs on: AppiumAUT around the app, or the context element alone for a scoped find. */
function xmlDocument(tree: UiTree, context: TreeNode): { document: XNode; contextNode: XNode; nodeOf: Map<XNode, TreeNode> } {
  const nodeOf = new Map<XNode, TreeNode>();
  let order = 0;
  const document: XNode = { name: '#document', attributes: new Map(), children: [], parent: null, order: order++ };
  let top = document;
  if (context === tree.root) {
    top = { name: 'AppiumAUT', attributes: new Map(), children: [], parent: document, order: order++ };
    document.children.push(top);
  }
  let contextNode: XNode = top;
  const convert = (node: TreeNode, parent: XNode): XNode => {
    const x: XNode = { name: wdType(node.element), attributes: new Map(xmlAttributes(node, tree)), children: [], parent, order: order++ };
    nodeOf.set(x, node);
    if (node === context) contextNode = x;
    x.children = node.children.map((child) => convert(child, x));
    return x;
  };
  top.children.push(convert(context, top));
  return { document, contextNode, nodeOf };
}

function byXPath(tree: UiTree, context: TreeNode, source: string): TreeNode[] {
  try {
    const compiled = compileXPath(source);
    const { document, contextNode, nodeOf } = xmlDocument(tree, context);
    return selectNodes(compiled, document, contextNode)
      .map((x) => nodeOf.get(x))
      .filter((node): node is TreeNode => node !== undefined);
  } catch (error) {
    if (error instanceof XPathSyntaxError) {
      throw invalidSelector(`Cannot evaluate results for XPath expression "${source}": ${error.message}`);
    }
    throw error;
  }
}

function byLinkText(context: TreeNode, value: string, partial: boolean): TreeNode[] {
  const at = value.indexOf('=');
  const property = at < 0 ? 'name' : value.slice(0, at);
  const wanted = at < 0 ? value : value.slice(at + 1);
  const read: Record<string, (e: PhoneElement) => string | null> = { name: wdName, label: wdLabel, value: wdValue };
  const reader = read[property];
  if (!reader) throw invalidArgument(`Invalid property name '${property}' for link text. Use one of: name, label, value`);
  return matching(context, (element) => {
    const actual = reader(element);
    return actual !== null && (partial ? actual.includes(wanted) : actual === wanted);
  });
}

/** The nodes a locator selects, searched from `context` (itself included, as WDA does). */
export function findNodes(tree: UiTree, context: TreeNode, using: string, value: string): TreeNode[] {
  switch (using) {
    case 'accessibility id':
    case 'id':
    case 'name':
      return matching(context, (element) => wdName(element) === value);
    case 'class name': {
      if (!value.startsWith(TYPE_PREFIX) || !KNOWN_TYPES.has(value.slice(TYPE_PREFIX.length))) {
        if (value !== `${TYPE_PREFIX}Any`) throw invalidArgument(`Invalid class name '${value}'. It must be a valid XCUIElementType name`);
        return [...selfAndDescendants(context)];
      }
      const type = value.slice(TYPE_PREFIX.length);
      return matching(context, (element) => element.type === type);
    }
    case 'predicate string':
      return byPredicate(context, value);
    case 'class chain':
      return byClassChain(context, value);
    case 'xpath':
      return byXPath(tree, context, value);
    case 'link text':
    case 'partial link text':
      return byLinkText(context, value, using === 'partial link text');
    default:
      throw invalidArgument(`Invalid locator requested: ${using}`);
  }
}

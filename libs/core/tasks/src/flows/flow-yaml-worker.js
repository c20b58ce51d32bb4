'use strict';
/**
 * Worker-thread entry of the flow YAML reader (flow-yaml-reader.ts): composing a flow file costs microseconds
 * per byte, and more for nested or wide shapes, which must not hold the event loop. Answers `{ id, result }`
 * or `{ id, error }`. Plain JavaScript: a worker gets no TypeScript loader (the package build bundles it with
 * yaml next to the CLI).
 */
const { parentPort } = require('node:worker_threads');
const { isNode, isScalar, LineCounter, parseDocument, visit } = require('yaml');

/** How far aliases may expand (a flow needs none to speak of): yaml refuses a document past it. */
const MAX_ALIAS_COUNT = 50;
const MAX_ERRORS = 5;

function compose(source) {
  const lines = new LineCounter();
  // Unique keys are checked below, in linear time: yaml's own check compares every key of a map with every other.
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const at = (offset) => {
    const pos = lines.linePos(offset);
    return `line ${pos.line}, column ${pos.col}`;
  };
  return { doc, at };
}

/** The flow as plain data, or its YAML errors, each naming its line and column. */
function read(source) {
  const { doc, at } = compose(source);
  const errors = doc.errors.slice(0, MAX_ERRORS).map((e) => `${at(e.pos[0])}: ${firstLine(e.message)}`);
  if (errors.length === 0) errors.push(...duplicateKeys(doc, at));
  if (errors.length > 0) return { errors };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (error) {
    const alias = firstAlias(doc);
    const where = alias?.range ? `${at(alias.range[0])}: ` : '';
    const message = String(error?.message ?? error);
    const why = /alias count/i.test(message)
      ? `its aliases expand to more than ${MAX_ALIAS_COUNT} nodes; write the steps out`
      : firstLine(message);
    return { errors: [`${where}${why}`] };
  }
}

function duplicateKeys(doc, at) {
  const errors = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? `s:${String(pair.key.value)}` : isNode(pair.key) ? undefined : `s:${String(pair.key)}`;
        if (key === undefined) continue;
        if (seen.has(key) && errors.length < MAX_ERRORS) errors.push(`${at(pair.key?.range?.[0] ?? map.range?.[0] ?? 0)}: Map keys must be unique`);
        seen.add(key);
      }
    },
  });
  return errors;
}

function firstAlias(doc) {
  let found;
  visit(doc, {
    Alias(_key, node) {
      found = node;
      return visit.BREAK;
    },
  });
  return found;
}

/** "line L, column C" of the deepest node each path reaches (undefined where none). */
function positions(source, paths) {
  const { doc, at } = compose(source);
  return paths.map((path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return at(node.range[0]);
    }
    return undefined;
  });
}

function firstLine(message) {
  return message.split('\n')[0].slice(0, 200);
}

parentPort.on('message', (request) => {
  try {
    const result = request.kind === 'read' ? read(request.source) : positions(request.source, request.paths);
    parentPort.postMessage({ id: request.id, result });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: firstLine(String(error?.message ?? error)) });
  }
});

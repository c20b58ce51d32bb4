import { useState } from 'preact/hooks';
import { mcpCallFor } from '../geometry';
import type { FindMatch, UiNode } from '../types';

export interface InspectorProps {
  root: UiNode | undefined;
  hovered: UiNode | undefined;
  selected: UiNode | undefined;
  matches: FindMatch[] | undefined;
  description: string | undefined;
  onHover: (node: UiNode | undefined) => void;
  onSelect: (node: UiNode) => void;
  onRefresh: () => void;
  onFind: (kind: 'text' | 'icon', query: string) => void;
  onDescribe: () => void;
}

function nodeTitle(node: UiNode): string {
  const words = [node.label, node.value !== undefined && node.value !== node.label ? `= ${node.value}` : undefined].filter(Boolean);
  return words.join(' ');
}

function TreeNode({ node, depth, props }: { node: UiNode; depth: number; props: InspectorProps }) {
  const active = props.selected !== undefined && props.selected.key === node.key;
  return (
    <li>
      <button
        type="button"
        class={`tree-node${active ? ' active' : ''}${props.hovered !== undefined && props.hovered.key === node.key ? ' hovered' : ''}`}
        data-testid="tree-node"
        data-node={node.id}
        data-label={node.label}
        aria-current={active ? 'true' : undefined}
        style={{ paddingLeft: `${0.4 + depth * 0.8}rem` }}
        onMouseEnter={() => props.onHover(node)}
        onMouseLeave={() => props.onHover(undefined)}
        onFocus={() => props.onHover(node)}
        onBlur={() => props.onHover(undefined)}
        onClick={() => props.onSelect(node)}
      >
        <span class="role">{node.role}</span> {nodeTitle(node)}
        {node.ref && <span class="ref">{node.ref}</span>}
      </button>
      {node.children && node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <TreeNode key={child.key ?? child.id} node={child} depth={depth + 1} props={props} />
          ))}
        </ul>
      )}
    </li>
  );
}

function NodeDetails({ node }: { node: UiNode }) {
  const call = mcpCallFor(node);
  const [copied, setCopied] = useState(false);
  const b = node.bounds;
  return (
    <div class="details" data-testid="node-details">
      <dl>
        <dt>Role</dt>
        <dd>{node.role}</dd>
        <dt>Label</dt>
        <dd>{node.label ?? '—'}</dd>
        <dt>Value</dt>
        <dd>{node.value ?? '—'}</dd>
        <dt>Bounds</dt>
        <dd>
          x {b.x}, y {b.y}, {b.width}×{b.height} pt
        </dd>
        <dt>Ref</dt>
        <dd>{node.ref ?? '—'}</dd>
      </dl>
      <label for="mcp-call">MCP call</label>
      <div class="inline-form">
        <input id="mcp-call" type="text" readOnly value={call} data-testid="mcp-call" onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(call).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** The element tree beside the screen, the selected element's details, and the find box. */
export function Inspector(props: InspectorProps) {
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<'text' | 'icon'>('text');
  return (
    <section class="card inspector" aria-labelledby="inspector-title">
      <div class="card-head">
        <h2 id="inspector-title">Inspector</h2>
        <button type="button" onClick={props.onRefresh}>
          Refresh tree
        </button>
      </div>
      <form
        class="inline-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim()) props.onFind(kind, query.trim());
        }}
      >
        <label for="find-input">Find</label>
        <input id="find-input" data-testid="find-input" type="search" value={query} placeholder="General" onInput={(e) => setQuery(e.currentTarget.value)} />
        <label for="find-kind" class="visually-hidden">
          Find what
        </label>
        <select id="find-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as 'text' | 'icon')}>
          <option value="text">text</option>
          <option value="icon">icon</option>
        </select>
        <button type="submit">Find</button>
      </form>
      {props.matches && (
        <p class="small" data-testid="find-results" aria-live="polite">
          {props.matches.length === 0
            ? 'No match.'
            : props.matches.map((m) => `${m.text ?? m.label ?? '?'} (${m.source}, ${Math.round(m.confidence * 100)}%)`).join(' · ')}
          {props.matches.length > 0 && <span class="legend"> Solid outline: element tree; dashed: read from pixels.</span>}
        </p>
      )}
      <div class="inspector-body">
        <div class="tree" data-testid="tree" aria-label="Element tree">
          {props.root ? (
            <ul>
              <TreeNode node={props.root} depth={0} props={props} />
            </ul>
          ) : (
            <p class="muted">Loading the element tree…</p>
          )}
        </div>
        {props.selected ? <NodeDetails node={props.selected} /> : <p class="muted small">Hover the screen or a node to inspect it.</p>}
      </div>
      <div class="card-head">
        <h3>Screen description</h3>
        <button type="button" onClick={props.onDescribe}>
          Describe screen
        </button>
      </div>
      {props.description && (
        <pre class="description" data-testid="description" tabIndex={0}>
          {props.description}
        </pre>
      )}
    </section>
  );
}

import { ERROR_CODES, ERROR_CODE_LIST } from '@apex/errors';
import type { OpenApiDocument } from './openapi';
import { HTTP_PROBLEMS, PROBLEM_TYPE_BASE } from './problem';

type Json = Record<string, unknown>;

function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Resolves a local `$ref` (only `#/components/...` refs are generated). */
function deref(doc: OpenApiDocument, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc) as Json | undefined;
}

/** A compact type name for a JSON schema: `number (0..10000)`, `"jpeg" | "png"`, `array of object`. */
function typeOf(doc: OpenApiDocument, raw: Json | undefined): string {
  const schema = deref(doc, raw);
  if (!schema) return 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as Json[]).map((s) => typeOf(doc, s)).join(' | ');
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  if (type === 'array') return `array of ${typeOf(doc, schema.items as Json | undefined)}`;
  const bounds = [schema.minimum ?? schema.minLength ?? schema.minItems, schema.maximum ?? schema.maxLength ?? schema.maxItems];
  if (bounds.some((b) => b !== undefined && Math.abs(Number(b)) < 1e15)) {
    const [min, max] = bounds.map((b) => (b === undefined || Math.abs(Number(b)) >= 1e15 ? '' : String(b)));
    return `${type} (${min}..${max}${schema.minLength !== undefined || schema.maxLength !== undefined ? ' chars' : ''})`;
  }
  return type;
}

/** One row per property of an object schema (one level deep; nested objects show their type). */
function fieldsTable(doc: OpenApiDocument, raw: Json | undefined, emptyText: string): string {
  const schema = deref(doc, raw);
  const properties = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  if (names.length === 0) return `<p class="none">${escapeHtml(emptyText)}</p>`;
  const rows = names.map((name) => {
    const prop = deref(doc, properties[name]) ?? {};
    const fallback = prop.default === undefined ? '' : ` Default: <code>${escapeHtml(JSON.stringify(prop.default))}</code>.`;
    return `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${escapeHtml(typeOf(doc, prop))}</td><td>${escapeHtml(prop.description ?? '')}${fallback}</td></tr>`;
  });
  return `<table><thead><tr><th>field</th><th>type</th><th>description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function queryAsSchema(parameters: Json[] | undefined): Json {
  const query = (parameters ?? []).filter((p) => p.in === 'query');
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, { ...(p.schema as Json), description: p.description ?? (p.schema as Json)?.description }])),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
}

function renderOperation(doc: OpenApiDocument, method: string, path: string, op: Json): string {
  const id = String(op.operationId ?? `${method}-${path}`);
  const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
  const ok = ((op.responses as Json)['200'] as Json | undefined)?.content as Record<string, Json> | undefined;
  const okJson = ok?.['application/json']?.schema as Json | undefined;
  const okTypes = Object.keys(ok ?? {});
  const errors = Object.keys(op.responses as Json).filter((status) => status !== '200');
  const input = body
    ? `<h4>JSON body</h4>${fieldsTable(doc, body.schema as Json, 'No fields.')}`
    : `<h4>Query parameters</h4>${fieldsTable(doc, queryAsSchema(op.parameters as Json[] | undefined), 'None.')}`;
  return `<section class="op" id="${escapeHtml(id)}">
<h3><span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code> — ${escapeHtml(op.summary)}</h3>
<p>${escapeHtml(op.description)}</p>
${op['x-apex-operation'] ? `<p class="meta">Operation <code>${escapeHtml(op['x-apex-operation'])}</code> (the MCP tool of the same name).</p>` : ''}
${input}
<h4>Response 200 (${escapeHtml(okTypes.join(', ') || 'empty')})</h4>
${okJson ? fieldsTable(doc, okJson, 'No fields.') : ''}
${errors.length ? `<p class="meta">Problems: ${errors.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</p>` : ''}
</section>`;
}

function problemList(): string {
  const rows = [
    ...ERROR_CODE_LIST.map((code) => [code, ERROR_CODES[code].httpStatus, ERROR_CODES[code].title] as const),
    ...Object.entries(HTTP_PROBLEMS).map(([code, spec]) => [code, spec.status, spec.title] as const),
  ].sort((a, b) => a[1] - b[1]);
  return `<table><thead><tr><th>code</th><th>status</th><th>title</th></tr></thead><tbody>${rows
    .map(([code, status, title]) => `<tr id="problem-${code}"><td><code>${code}</code></td><td>${status}</td><td>${escapeHtml(title)}</td></tr>`)
    .join('')}</tbody></table>`;
}

/** A self-contained HTML page (no external assets) generated from the OpenAPI document. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      const json = op as Json;
      toc.push(`<li><a href="#${escapeHtml(json.operationId)}"><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code></a> ${escapeHtml(json.summary)}</li>`);
      sections.push(renderOperation(doc, method, path, json));
    }
  }
  const auth = doc.security?.length
    ? '<p><strong>Authentication is on:</strong> send <code>Authorization: Bearer &lt;APEX_TOKEN&gt;</code> on every request except <code>/healthz</code>.</p>'
    : '<p>Authentication is off (no <code>APEX_TOKEN</code>); the server only answers on this machine.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code{font:13px ui-monospace,monospace;background:#f3f3f3;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#fafafa}.op{border-top:1px solid #ccc;padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:3.5em;text-align:center;border-radius:3px;color:#fff;font-size:13px;padding:0 .3em}
.get{background:#2b7bb9}.post{background:#2e8b57}.req{color:#b00;font-size:12px}.none,.meta{color:#666}
</style></head><body>
<h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
${auth}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(doc.openapi)}).</p>
<h2>Routes</h2><ul>${toc.join('')}</ul>
${sections.join('\n')}
<h2 id="problems">Problems</h2>
<p>Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code> = <code>${PROBLEM_TYPE_BASE}&lt;code&gt;</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>code</code>, and where useful <code>hint</code>, <code>retryable</code> and <code>errors</code> (one <code>{path, message}</code> per bad field).</p>
${problemList()}
</body></html>`;
}

import { DEVICE_OPERATIONS } from '@apex/capability';
import { DEPRECATED_FIELDS, REST_ROUTES } from '@apex/rest';
import { call, startRestHarness, type RestHarness } from './harness';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('OpenAPI document and docs page', () => {
  let h: RestHarness;
  let doc: Json;

  beforeAll(async () => {
    h = await startRestHarness();
    doc = (await call(h.url, 'GET', '/openapi.json')).body;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is OpenAPI 3.1 with info, paths and components', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(REST_ROUTES.length);
    expect(doc.components.schemas.Problem).toMatchObject({ type: 'object', required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code']) });
  });

  it('covers every device operation, and every route with its operation schemas', () => {
    expect(new Set(REST_ROUTES.map((r) => r.operation))).toEqual(new Set(DEVICE_OPERATIONS.map((op) => op.name)));
    for (const route of REST_ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op).toBeDefined();
      const definition = DEVICE_OPERATIONS.find((d) => d.name === route.operation);
      if (!definition) throw new Error(`no operation ${route.operation}`);
      expect(op).toMatchObject({ operationId: definition.name, summary: definition.title, description: definition.description });
      const currentFields = Object.keys(definition.input.shape).filter((f) => f !== 'device');
      // Each deprecated name REST still accepts is documented beside the field that replaced it, marked deprecated.
      const deprecatedFields = Object.entries(DEPRECATED_FIELDS)
        .filter(([old, current]) => currentFields.includes(current) && !currentFields.includes(old))
        .map(([old]) => old);
      const inputFields = [...currentFields, ...deprecatedFields];
      if (route.method === 'POST') {
        const schema = op.requestBody.content['application/json'].schema;
        expect(Object.keys(schema.properties ?? {}).sort()).toEqual(inputFields.sort());
        for (const name of deprecatedFields) expect(schema.properties[name]).toMatchObject({ deprecated: true });
      } else {
        const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
        expect(query.sort()).toEqual(inputFields.sort());
      }
      if (route.path.includes('{id}')) {
        expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id', required: true })]));
      }
      const ok = op.responses['200'].content;
      const outputFields = Object.keys(definition.output.shape).sort();
      expect(Object.keys(ok['application/json'].schema.properties).filter((f) => f !== 'data').sort()).toEqual(outputFields);
      expect(op.responses['400']).toEqual({ $ref: '#/components/responses/InvalidArgument' });
      expect(doc.components.responses.InvalidArgument.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    }
    const screenshot = doc.paths['/devices/{id}/screenshot'].post.responses['200'].content;
    expect(Object.keys(screenshot)).toEqual(expect.arrayContaining(['image/jpeg', 'image/png', 'application/json']));
  });

  it('documents /healthz and /mcp, without security when no token is set', () => {
    expect(doc.paths['/healthz'].get).toBeDefined();
    expect(doc.paths['/mcp'].post).toBeDefined();
    expect(doc.security).toBeUndefined();
  });

  it('serves a self-contained HTML page generated from the same document', async () => {
    const res = await fetch(`${h.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    for (const route of REST_ROUTES) expect(html).toContain(`${route.method} ${route.path}`);
    for (const op of DEVICE_OPERATIONS) expect(html).toContain(`id="${op.name}"`);
    expect(html).toContain('id="problem-route_not_found"');
    // Nothing fetched from elsewhere.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="http|src="http/i);
  });

  it('redirects / to /docs', async () => {
    const res = await fetch(`${h.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });
});

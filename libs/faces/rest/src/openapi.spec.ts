import { DEVICE_OPERATIONS } from '@apex/capability';
import { renderDocsPage } from './docs-page';
import { buildOpenApiDocument } from './openapi';
import { REST_ROUTES } from './routes';

const operations = new Map(DEVICE_OPERATIONS.map((op) => [op.name, op]));

describe('buildOpenApiDocument', () => {
  it('names an existing operation on every route', () => {
    for (const route of REST_ROUTES) expect(operations.has(route.operation)).toBe(true);
  });

  it('requires the bearer scheme only when the server has a token', () => {
    const open = buildOpenApiDocument(REST_ROUTES, operations, { auth: false });
    const locked = buildOpenApiDocument(REST_ROUTES, operations, { auth: true });
    expect(open.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(open.security).toBeUndefined();
    expect(locked.security).toEqual([{ bearerAuth: [] }]);
    expect(locked.paths?.['/healthz']?.get?.security).toEqual([]);
    expect(locked.paths?.['/devices']?.get?.responses?.['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(open.paths?.['/devices']?.get?.responses?.['401']).toBeUndefined();
    expect(renderDocsPage(locked)).toContain('Authentication is on');
    expect(renderDocsPage(open)).toContain('Authentication is off');
  });

  it('refuses a route whose operation is missing', () => {
    expect(() => buildOpenApiDocument([{ method: 'GET', path: '/x', operation: 'nope' }], operations, { auth: false })).toThrow(/unknown operation nope/);
  });

  it('escapes what it writes into the docs page', () => {
    const doc = buildOpenApiDocument(REST_ROUTES, operations, { auth: false });
    doc.info.description = '<script>alert(1)</script>';
    expect(renderDocsPage(doc)).not.toContain('<script>');
  });
});

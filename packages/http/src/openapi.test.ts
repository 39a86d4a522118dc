import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../../../test/helpers/test-api.js';
import { ALL_ROUTES } from './routes/index.js';
import { fullPathOf, toRouterPath } from './route.js';

describe('OpenAPI document', () => {
  let api: TestApi;
  let doc: any;
  beforeAll(async () => {
    api = await createTestApi();
    const response = await api.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    doc = response.body;
  });
  afterAll(() => api?.close());

  it('is OpenAPI 3.1 with every route of the table, and nothing else', () => {
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const routed = ALL_ROUTES.map((route) => `${route.method} ${fullPathOf(route)}`);
    expect(documented.sort()).toEqual([...new Set(routed)].sort());
  });

  it('every documented operation is served (not 404/405) by the app', async () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        const concrete = path.replace(/\{number\}/g, '1').replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const response = await api.request(method.toUpperCase(), concrete);
        expect([404, 405].includes(response.status) && /^not found: |is not allowed/.test(String(response.body?.error)), `${method} ${path}`).toBe(false);
      }
    }
  });

  it('documents path parameters, bodies, error responses and the bearer scheme', () => {
    const getProject = doc.paths['/api/v1/projects/{id}'].get;
    expect(getProject.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ format: 'uuid' }) }),
    ]);
    expect(Object.keys(getProject.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429', '500']);
    expect(getProject.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Project' });
    expect(doc.components.schemas.Project.required).toEqual(expect.arrayContaining(['id', 'name', 'key', 'user_role', 'settings']));
    expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
    const createProject = doc.paths['/api/v1/projects'].post;
    expect(createProject.requestBody.required).toBe(true);
    expect(createProject.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateProjectRequest' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    // Every $ref points at a component that exists.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty([ref.slice(22, -1)]);
  });

  // Found by the API fuzzer: `dismissed` of the drift-alert list was typed boolean with string
  // values, a schema no value satisfies (generated clients could not send it).
  it('every enum value and default fits the type it is declared with', () => {
    const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);
    const fits = (value: unknown, type: unknown) => [type].flat().some((t) => t === jsonType(value) || (t === 'number' && jsonType(value) === 'integer'));
    const misfits: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as { type?: unknown; enum?: unknown[]; default?: unknown };
      if (schema.type !== undefined) {
        for (const value of schema.enum ?? [])
          if (!fits(value, schema.type)) misfits.push(`${at}: enum ${JSON.stringify(value)} is not ${String(schema.type)}`);
        if ('default' in schema && !fits(schema.default, schema.type)) misfits.push(`${at}: default ${JSON.stringify(schema.default)}`);
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${at}/${key}`);
    };
    visit(doc, '#');
    expect(misfits).toEqual([]);
    const dismissed = doc.paths['/api/v1/projects/{id}/health/drift-alerts'].get.parameters.find((p: { name: string }) => p.name === 'dismissed');
    expect(dismissed.schema).toEqual({ type: 'string', enum: expect.arrayContaining(['true', 'false', '1', '0']) });
  });

  it('route paths are unique per method and the router syntax round-trips', () => {
    const keys = ALL_ROUTES.map((route) => `${route.method} ${toRouterPath(fullPathOf(route))}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ALL_ROUTES.map((r) => r.operationId)).size).toBe(ALL_ROUTES.length);
  });
});

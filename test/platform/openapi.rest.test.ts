import { createGroup } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp({ reset: 'once' });

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  nullable?: boolean;
  additionalProperties?: boolean;
  oneOf?: Schema[];
  allOf?: Schema[];
};

/** A small validator for the subset of OpenAPI schemas we emit, enough to check live responses. */
function check(value: unknown, schema: Schema, components: Record<string, Schema>, path: string): string[] {
  if (schema.$ref) return check(value, components[schema.$ref.split('/').pop()!], components, path);
  if (schema.allOf)
    return schema.allOf.flatMap((s) => (value === null && schema.nullable ? [] : check(value, s, components, path)));
  if (value === null) return schema.nullable ? [] : [`${path}: null not allowed`];
  if (schema.type === 'array')
    return Array.isArray(value)
      ? value.flatMap((v, i) => check(v, schema.items!, components, `${path}[${i}]`))
      : [`${path}: not an array`];
  if (schema.type === 'object') {
    if (typeof value !== 'object') return [`${path}: not an object`];
    const v = value as Record<string, unknown>;
    const errs = (schema.required ?? []).filter((k) => !(k in v)).map((k) => `${path}.${k}: missing`);
    for (const [k, val] of Object.entries(v)) {
      const prop = schema.properties?.[k];
      if (!prop) errs.push(`${path}.${k}: not in schema`);
      else errs.push(...check(val, prop, components, `${path}.${k}`));
    }
    return errs;
  }
  const actual = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  if (schema.type === 'number' && actual === 'integer') return [];
  return schema.type && actual !== schema.type ? [`${path}: ${actual} is not ${schema.type}`] : [];
}

describe('GET /api/v4/openapi.json', () => {
  it('lists every REST route and validates live responses against its schemas', async () => {
    const doc = (await api(t).get('/api/v4/openapi.json')).body as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: { 'application/json': { schema: Schema } } }> }>
      >;
      components: { schemas: Record<string, Schema> };
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/groups',
        '/groups/{id}',
        '/groups/{id}/subgroups',
        '/groups/{id}/projects',
        '/groups/{id}/projects/{project_id}',
        '/users/{user_id}/impersonation_tokens',
        '/projects/{id}/share',
      ]),
    );
    const g = await createGroup(t, { visibility: 'public' });
    await api(t, ROOT_TOKEN).post('/api/v4/projects').send({ name: 'p', namespace_id: g.id }).expect(201);
    for (const [path, method, url] of [
      ['/groups', 'get', '/api/v4/groups'],
      ['/groups/{id}', 'get', `/api/v4/groups/${g.id}`],
      ['/projects', 'get', '/api/v4/projects'],
      ['/user', 'get', '/api/v4/user'],
    ] as const) {
      const res = await api(t, ROOT_TOKEN).get(url);
      const schema = doc.paths[path][method].responses['200'].content!['application/json'].schema;
      expect({ url, errors: check(res.body, schema, doc.components.schemas, '$') }).toEqual({ url, errors: [] });
    }
  });

  it('describes each parameter with the type and description derived from the GraphQL arguments', async () => {
    type Param = {
      name: string;
      in: string;
      required: boolean;
      description?: string;
      schema: { type: string; enum?: string[] };
    };
    type Op = {
      parameters: Param[];
      requestBody?: {
        content: {
          'application/json': {
            schema: {
              properties: Record<string, { type: string; enum?: string[]; description?: string }>;
              required?: string[];
            };
          };
        };
      };
    };
    const doc = (await api(t).get('/api/v4/openapi.json')).body as { paths: Record<string, Record<string, Op>> };
    const list = doc.paths['/groups'].get.parameters;
    expect(list.find((p) => p.name === 'search')).toEqual({
      name: 'search',
      in: 'query',
      required: false,
      description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).',
      schema: { type: 'string' },
    });
    expect(list.find((p) => p.name === 'order_by')?.schema).toEqual({ type: 'string', enum: ['name', 'path', 'id'] });
    expect(list.find((p) => p.name === 'statistics')?.description).toBe(
      'Include storage statistics (administrators only).',
    );
    // GitLab's bracket form custom_attributes[key]=value: Swagger UI sends it that way only for deepObject.
    expect(list.find((p) => p.name === 'custom_attributes')).toMatchObject({
      in: 'query',
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
    const body = doc.paths['/groups'].post.requestBody!.content['application/json'].schema;
    expect(body.required).toEqual(['name', 'path']);
    expect(body.properties.visibility).toEqual({
      type: 'string',
      enum: ['private', 'internal', 'public'],
      description: 'Default on create: private.',
    });
    expect(body.properties.parent_id).toEqual({ type: 'integer', description: 'Parent group for a subgroup.' });
  });

  it('serves Swagger UI from local assets', async () => {
    const page = await api(t).get('/api/v4/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/api/v4/docs/assets/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/unpkg|jsdelivr|cdn/);
    expect((await api(t).get('/api/v4/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });
});

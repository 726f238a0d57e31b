import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import { getNullableType, isListType, parse, printType, type ASTNode, type GraphQLSchema } from 'graphql';
import type { OpenAPI as SofaOpenAPI } from 'sofa-api';
import { COUNT_LIMIT } from '../core/pagination/page';
import type { ParamSpec } from '../core/params/coerce';
import { schemaOf, type JsonSchema } from '../core/wire/wire';
import type { CompiledRoute } from './route-document';

type Operation = Record<string, unknown>;

function paramSchema(spec: ParamSpec): JsonSchema {
  switch (spec.type) {
    case 'int':
      return spec.values ? { type: 'integer', enum: spec.values } : { type: 'integer' };
    case 'bigint':
      return { type: 'integer', format: 'int64' };
    case 'float':
      return { type: 'number' };
    case 'bool':
      return { type: 'boolean' };
    case 'intArray':
      return { type: 'array', items: { type: 'integer' } };
    case 'stringArray':
      return { type: 'array', items: spec.values ? { type: 'string', enum: spec.values } : { type: 'string' } };
    case 'hash':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'enum':
      return { type: 'string', enum: spec.values };
    case 'id':
      return { type: 'string', description: 'integer id or URL-encoded full path' };
    case 'file':
      return { type: 'string', format: 'binary', description: 'a multipart file part' };
    default:
      return { type: 'string' };
  }
}

/** A root field returning a plain list (GET /features, custom attributes) is an array on the wire too. */
function returnsList(c: CompiledRoute): boolean {
  return !c.route.unwrap && isListType(getNullableType(c.field.type));
}

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'GitLab error body: {"message": ...} or {"error": "..."}',
  properties: { message: {}, error: { type: 'string' } },
};

const WITHOUT_TOTAL = `Absent when more than ${COUNT_LIMIT.toLocaleString('en-US')} rows match (GitLab's count limit) and in keyset mode.`;
const PAGE_HEADER_NOTES: Record<string, string | undefined> = {
  'X-Total': WITHOUT_TOTAL,
  'X-Total-Pages': WITHOUT_TOTAL,
  Link: 'prev, next, first, last (no last without X-Total); keyset mode: next only.',
};
const PAGE_HEADERS = Object.fromEntries(
  ['X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link'].map((h) => [
    h,
    { description: PAGE_HEADER_NOTES[h], schema: { type: 'string' } },
  ]),
);

/**
 * OpenAPI 3 for /api/v4. sofa-api's OpenAPI builder lays out the paths from the schema filtered to the
 * mapped root fields; sofa describes GraphQL (camelCase) shapes, so each operation's parameters,
 * request body and responses are then written from the route table and the presenters' wire shapes,
 * i.e. from what the REST routes really accept and send.
 */
export function buildOpenApi(schema: GraphQLSchema, routes: CompiledRoute[]): Record<string, unknown> {
  const mapped = new Set(routes.map((c) => c.route.field));
  const filtered = pruneSchema(filterSchema({ schema, rootFieldFilter: (op, name) => mapped.has(`${op}.${name}`) }));
  // sofa-api reads each operation's descriptions from its root type's AST node and, for a schema built
  // in code (no AST), prints and re-parses the whole root type once per parameter: about 2 s of every
  // start-up. Each root type of this filtered copy gets its node once instead.
  for (const root of [filtered.getQueryType(), filtered.getMutationType()]) {
    if (root && !root.astNode) (root as { astNode?: ASTNode }).astNode = parse(printType(root)).definitions[0];
  }
  // Loaded with the first document (built on the first request, app.ts): sofa-api and what it pulls in
  // (fets, typebox, ajv) are a tenth of a second of every process start otherwise.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenAPI } = require('sofa-api') as { OpenAPI: typeof SofaOpenAPI };
  const api = OpenAPI({
    schema: filtered,
    info: {
      title: 'GitLab-compatible administration API',
      version: 'v4',
      description: 'GitLab API v4 subset; the same data is served over GraphQL at /graphql.',
    },
    servers: [{ url: '/api/v4' }],
  });
  for (const c of routes) {
    api.addRoute({
      document: [...c.documents.values()][0],
      path: c.route.path,
      method: c.route.method,
      tags: [c.route.tag],
      description: c.route.summary,
    });
  }
  const doc = api.get() as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  const components: Record<string, JsonSchema> = {};
  for (const c of routes) {
    const { route } = c;
    const oaPath = route.path.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[oaPath][route.method.toLowerCase()];
    const pathParams = new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
    const parameters: Operation[] = [];
    const bodyProps: Record<string, JsonSchema> = {};
    const bodyRequired: string[] = [];
    for (const [name, spec] of Object.entries(c.params)) {
      const description = spec.description;
      if (pathParams.has(name))
        parameters.push({ name, in: 'path', required: true, description, schema: paramSchema(spec) });
      else if (route.method === 'GET' || route.method === 'DELETE') {
        // A hash in the query string is GitLab's bracket form (`custom_attributes[env]=prod`): deepObject,
        // so that Swagger UI's "Try it out" sends it that way.
        const style = spec.type === 'hash' ? { style: 'deepObject', explode: true } : {};
        parameters.push({
          name,
          in: 'query',
          required: !!spec.required,
          description,
          schema: paramSchema(spec),
          ...style,
        });
      } else {
        bodyProps[name] = description ? { ...paramSchema(spec), description } : paramSchema(spec);
        if (spec.required) bodyRequired.push(name);
      }
    }
    const shapes = route.shapes ?? (route.shape && typeof route.shape !== 'function' ? [route.shape] : []);
    const status = c.status;
    const responses: Record<string, unknown> = {};
    if (shapes.length) {
      const one =
        shapes.length === 1 ? schemaOf(shapes[0], components) : { oneOf: shapes.map((s) => schemaOf(s, components)) };
      responses[String(status)] = {
        description: route.summary,
        headers: route.paginated ? PAGE_HEADERS : undefined,
        content: {
          'application/json': { schema: route.paginated || returnsList(c) ? { type: 'array', items: one } : one },
        },
      };
      if (typeof route.status === 'function') responses['304'] = { description: 'Not modified' };
    } else if (route.scalar) {
      const schema =
        route.scalar === 'accepted'
          ? { type: 'object', properties: { message: { type: 'string', example: '202 Accepted' } } }
          : { type: route.scalar === 'status' ? 'integer' : route.scalar };
      responses[String(status)] = { description: route.summary, content: { 'application/json': { schema } } };
    } else {
      responses[String(status)] = { description: `${route.summary}: empty body` };
    }
    for (const s of ['400', '401', '403', '404'])
      responses[s] = {
        description: 'GitLab error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    Object.assign(op, {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:](\w)/g, (_m, ch: string) => ch.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`,
      parameters,
      responses,
      security: [{ privateToken: [] }, {}],
    });
    if (Object.keys(bodyProps).length) {
      const body = { type: 'object', properties: bodyProps, required: bodyRequired.length ? bodyRequired : undefined };
      op.requestBody = {
        content: {
          'application/json': { schema: body },
          'application/x-www-form-urlencoded': { schema: body },
          'multipart/form-data': { schema: body },
        },
      };
    } else {
      delete op.requestBody;
    }
  }
  components.Error = ERROR_SCHEMA;
  doc.components = {
    schemas: components,
    securitySchemes: { privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' } },
  } as never;
  return JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
}

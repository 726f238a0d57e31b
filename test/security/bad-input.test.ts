import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { routesOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import type { RouteDef } from '../../src/rest/route';
import { createGroup, createProject, createUser, type TestUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Generated hostile input for EVERY REST route of the registry and EVERY GraphQL root field of the
 * schema: wrong types, NUL and control characters, overlong strings,
 * huge and negative numbers, malformed keyset cursors, odd content types and truncated bodies.
 * Whatever the input, the answer is a 4xx/2xx with a JSON body: never a 5xx, never
 * INTERNAL_SERVER_ERROR, and no error body carries SQL or a stack trace.
 */
const t = useTestApp({ reset: 'once' });

const LONG = 'x'.repeat(100_000);
/** Query strings stay under Node's 16 KB header limit (beyond it Node's parser answers 431 itself). */
const LONG_QUERY = 'x'.repeat(8_000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** Values for any parameter (strings as a GitLab client would send them, plus JSON-only shapes). */
const HOSTILE: unknown[] = [
  'abc',
  '-1',
  '0',
  '99999999999999999999',
  '1e300',
  '-1e300',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  ' 1',
  '1 ',
  'a\u0000b',
  '\u0000',
  '\u0001\u0008\u001b[31m',
  '\ud800',
  '%',
  '%00',
  '../../etc/passwd',
  "'; drop table users; --",
  '😀'.repeat(50),
  LONG,
  '',
  'true',
  'yes',
  '2026-13-45',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '-infinity',
  [],
  ['a', 'b'],
  [1, [2]],
  { a: 1 },
  { $where: 'x' },
  { a: { b: { c: 'd' } } },
  true,
  false,
  null,
  1e300,
  -1,
  0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  1.5,
  b64({ v: 1e300, id: 1 }),
  b64({ v: '\u0000', id: 1 }),
  b64({ id: 'x' }),
  b64([1, 2]),
  b64(null),
  'not-base64!!',
  b64({ v: { a: 1 }, id: 2 ** 62 }),
];
const PATH_VALUES = [
  '0',
  '-1',
  '99999999999999999999',
  '2147483648',
  '1e3',
  'abc',
  '%00',
  'a%00b',
  '..%2F..%2Fetc',
  '%E0%A4%A',
  'x'.repeat(5000),
  '%F0%9F%98%80',
  'a%2Fb%2Fc%2Fd',
];

interface Finding {
  request: string;
  status: number;
  body: string;
}

const SQL_OR_STACK =
  /(\bselect\b[\s\S]*\bfrom\b|\binsert into\b|\bupdate\b[\s\S]*\bset\b[\s\S]*\bwhere\b|\bdelete from\b|syntax error at|violates .* constraint|\n\s+at .+\(.+:\d+:\d+\)|node_modules\/)/i;

/** Sends one request; a response the client cannot even parse (e.g. oversized headers) is a finding too. */
async function attempt(
  findings: Finding[],
  request: string,
  send: () => PromiseLike<{ status: number; text: string }>,
): Promise<void> {
  try {
    const res = await send();
    judge(findings, request, res.status, res.text);
  } catch (e) {
    findings.push({ request, status: 0, body: `client could not read the response: ${(e as Error).message}` });
  }
}

function judge(findings: Finding[], request: string, status: number, text: string): void {
  const bad =
    status >= 500 ||
    text.includes('INTERNAL_SERVER_ERROR') ||
    (status >= 400 && SQL_OR_STACK.test(text)) ||
    (status >= 400 && !text.startsWith('{'));
  if (bad) findings.push({ request, status, body: text.slice(0, 300) });
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every REST parameter name of a route: the declared ones and the snake_case of the root field's arguments and input fields. */
function paramNames(schema: GraphQLSchema, route: RouteDef): string[] {
  const names = new Set(Object.keys(route.params ?? {}));
  const [op, fieldName] = route.field.split('.');
  const field = (op === 'Mutation' ? schema.getMutationType() : schema.getQueryType())?.getFields()[fieldName];
  for (const arg of field?.args ?? []) {
    const type = getNamedType(arg.type);
    if (isInputObjectType(type)) for (const f of Object.keys(type.getFields())) names.add(snake(f));
    else names.add(snake(arg.name));
  }
  for (const seg of route.path.split('/')) if (seg.startsWith(':')) names.delete(seg.slice(1));
  return [...names, 'page', 'per_page', 'cursor', 'pagination', 'sudo'].filter((n, i, a) => a.indexOf(n) === i);
}

let ids: Record<string, string>;
let routes: RouteDef[];
let schema: GraphQLSchema;
let user: TestUser;

beforeAll(async () => {
  await t.reset();
  schema = await buildAppSchema(MODULES);
  routes = routesOf(MODULES);
  user = await createUser(t, { username: 'fuzz-user' });
  const group = await createGroup(t, { path: 'fuzz-group', visibility: 'public' });
  const project = await createProject(t, {
    namespace: { id: group.id, fullPath: group.fullPath },
    path: 'fuzz-project',
    visibility: 'public',
  });
  ids = {
    id: String(group.id),
    project_id: String(project.id),
    user_id: String(user.id),
    key: 'k',
    token_id: '1',
    impersonation_token_id: '1',
  };
});

function pathWith(route: RouteDef, override?: { name: string; value: string }): string {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
    override?.name === name ? override.value : (ids[name] ?? '1'),
  );
  return `/api/v4${path}`;
}

const method = (r: RouteDef) => r.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';

describe('bad input on every REST route never gives a 5xx, SQL or a stack trace', () => {
  it('covers every route with hostile parameters, path segments and bodies (at least 300 cases)', async () => {
    const findings: Finding[] = [];
    let cases = 0;
    for (const route of routes) {
      const m = method(route);
      const destructive = route.method === 'DELETE';
      // Path segments: each path parameter with each hostile value.
      for (const seg of route.path.split('/').filter((s) => s.startsWith(':'))) {
        for (const value of PATH_VALUES) {
          const path = pathWith(route, { name: seg.slice(1), value });
          cases += 1;
          await attempt(findings, `${route.method} ${path.slice(0, 120)}`, () => api(t, ROOT_TOKEN)[m](path));
        }
      }
      if (destructive) continue;
      // Parameters: each one with a rotating slice of hostile values, in the query (GET) or a JSON body.
      const names = paramNames(schema, route);
      for (const [i, name] of names.entries()) {
        for (let k = 0; k < 8; k += 1) {
          const value = HOSTILE[(i * 8 + k) % HOSTILE.length];
          const req = () => api(t, ROOT_TOKEN)[m](pathWith(route));
          cases += 1;
          await attempt(findings, `${route.method} ${route.path} ${name}=${JSON.stringify(value)?.slice(0, 60)}`, () =>
            route.method === 'GET'
              ? req().query(
                  typeof value === 'object' && value !== null && !Array.isArray(value)
                    ? { [name]: JSON.stringify(value) }
                    : { [name]: value === LONG ? LONG_QUERY : (value as string) },
                )
              : req().send({ [name]: value }),
          );
        }
      }
      if (route.method === 'GET') {
        // Keyset cursors: forged, malformed, out-of-range and NUL-carrying values.
        for (const cursor of HOSTILE.filter((v) => typeof v === 'string')
          .slice(-8)
          .concat(['', 'eyJ9', b64({ v: 'a', id: -1 }), b64({ v: 'a', id: 1e300 })])) {
          for (const orderBy of ['id', 'name']) {
            cases += 1;
            await attempt(
              findings,
              `${route.method} ${route.path} keyset order_by=${orderBy} cursor=${String(cursor).slice(0, 40)}`,
              () =>
                api(t, ROOT_TOKEN)
                  .get(pathWith(route))
                  .query({ pagination: 'keyset', order_by: orderBy, cursor: cursor as string }),
            );
          }
        }
        continue;
      }
      // Bodies: odd content types, malformed and truncated payloads.
      const bodies: [string, string][] = [
        ['application/json', '{"name": "x",'],
        ['application/json', 'null'],
        ['application/json', '[1,2,3]'],
        ['application/json', '"just a string"'],
        ['application/json', '{"a":'.repeat(2000)],
        ['text/plain', 'name=x'],
        ['application/xml', '<name>x</name>'],
        ['application/x-www-form-urlencoded', 'name=%E0%A4%A&path=%'],
        ['application/x-www-form-urlencoded', `${'a[b]'.repeat(50)}=1`],
        ['multipart/form-data', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx'],
        ['multipart/form-data; boundary=zzz', '--zzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n'],
      ];
      for (const [type, body] of bodies) {
        cases += 1;
        await attempt(findings, `${route.method} ${route.path} body ${type} ${body.slice(0, 40)}`, () =>
          api(t, ROOT_TOKEN)[m](pathWith(route)).set('Content-Type', type).send(body),
        );
      }
    }
    expect(findings).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(300);
  }, 300_000);

  it('refuses hostile input from anonymous callers and other users the same way', async () => {
    const findings: Finding[] = [];
    for (const route of routes) {
      for (const token of [undefined, user.token, 'bad token \t with spaces', LONG.slice(0, 5000)]) {
        await attempt(findings, `${route.method} ${route.path} as ${token?.slice(0, 10)}`, () =>
          api(t, token)[method(route)](pathWith(route, { name: 'id', value: '%00' })),
        );
      }
    }
    expect(findings).toEqual([]);
  }, 120_000);
});

/** A variable value of the argument's type that is still hostile (the schema accepts it, the service must refuse it). */
function hostileFor(type: GraphQLInputType, depth = 0): unknown[] {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner))
    return hostileFor(inner.ofType, depth + 1)
      .map((v) => [v, v])
      .concat([[]]);
  const named = getNamedType(inner);
  if (isEnumType(named)) return [named.getValues()[0]?.value];
  if (isInputObjectType(named)) {
    if (depth > 2) return [{}];
    const fields = Object.values(named.getFields());
    const variants: unknown[] = [{}];
    for (const f of fields) for (const v of hostileFor(f.type, depth + 1).slice(0, 4)) variants.push({ [f.name]: v });
    return variants;
  }
  if (isScalarType(named)) {
    switch (named.name) {
      case 'Int':
        return [0, -1, -(2 ** 31), 2 ** 31 - 1];
      case 'Float':
        return [0, -1, 1e300, -1e300];
      case 'Boolean':
        return [true, false];
      case 'ID':
        return ['0', '-1', '99999999999999999999', 'a\u0000b', '../x', 'x'.repeat(5000), 'a/b/c'];
      case 'String':
        return ['', 'a\u0000b', '\u0001\u001b', LONG, '\ud800', b64({ v: 1e300, id: 1 }), b64({ v: '\u0000', id: 1 })];
      default:
        return ['a\u0000b', '', 'not-a-date', '9999-99-99', LONG.slice(0, 10000)];
    }
  }
  return [null];
}

/** A harmless value for the other required arguments. */
function saneFor(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [];
  const named = getNamedType(inner);
  if (isEnumType(named)) return named.getValues()[0]?.value;
  if (isInputObjectType(named)) {
    const out: Record<string, unknown> = {};
    for (const f of Object.values(named.getFields())) if (isNonNullType(f.type)) out[f.name] = saneFor(f.type);
    return out;
  }
  if (isScalarType(named))
    return named.name === 'Int' || named.name === 'Float'
      ? 1
      : named.name === 'Boolean'
        ? false
        : named.name === 'ID'
          ? ids.id
          : 'x';
  return null;
}

function selectionOf(field: GraphQLField<unknown, unknown>): string {
  return isObjectType(getNamedType(field.type)) ? '{ __typename }' : '';
}

/** The root fields of a schema view the fuzz sends (deletes left out: fixtures stay). */
function rootFields(view: GraphQLSchema): ['query' | 'mutation', GraphQLField<unknown, unknown>][] {
  const out: ['query' | 'mutation', GraphQLField<unknown, unknown>][] = [];
  for (const [op, type] of [
    ['query', view.getQueryType()],
    ['mutation', view.getMutationType()],
  ] as const) {
    // Deletes get the REST path sweep (and their payload twins, `groupDelete`, the same resolvers).
    for (const field of Object.values(type?.getFields() ?? {}))
      if (!field.name.startsWith('delete') && !field.name.endsWith('Delete')) out.push([op, field]);
  }
  return out;
}

/** One operation calling `field` with every argument as a variable. */
function fuzzDocument(op: string, field: GraphQLField<unknown, unknown>): string {
  const defs = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const call = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `${op} Fuzz${defs ? `(${defs})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selectionOf(field)} }`;
}

describe('bad input on every GraphQL root field never gives INTERNAL_SERVER_ERROR', () => {
  it('covers every argument of every query and mutation /graphql serves', async () => {
    const findings: Finding[] = [];
    let cases = 0;
    // /graphql serves the public view: its documents validate, so every value reaches variable
    // coercion and the resolver.
    for (const [op, field] of rootFields(publicView(schema))) {
      const query = fuzzDocument(op, field);
      for (const arg of field.args as readonly GraphQLArgument[]) {
        for (const value of hostileFor(arg.type)) {
          const variables: Record<string, unknown> = {};
          for (const a of field.args) if (a !== arg && isNonNullType(a.type)) variables[a.name] = saneFor(a.type);
          variables[arg.name] = value;
          cases += 1;
          await attempt(findings, `${op} ${field.name}(${arg.name}: ${JSON.stringify(value)?.slice(0, 60)})`, () =>
            api(t, ROOT_TOKEN).graphql(query, variables),
          );
        }
      }
    }
    expect(findings).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(100);
  }, 300_000);

  it('refuses the documents of the root fields and arguments only REST reaches, and hostile documents', async () => {
    const findings: Finding[] = [];
    const served = publicView(schema);
    let refused = 0;
    // A document of the internal view that /graphql does not serve (a REST twin, a page argument) is
    // refused at validation, before any variable is read: sent once, with hostile values for all its
    // arguments.
    for (const [op, field] of rootFields(schema)) {
      const query = fuzzDocument(op, field);
      if (validate(served, parse(query)).length === 0) continue; // the same field the sweep above covers
      const variables: Record<string, unknown> = {};
      for (const a of field.args) variables[a.name] = hostileFor(a.type)[0];
      refused += 1;
      await attempt(findings, `${op} ${field.name} (not served)`, () => api(t, ROOT_TOKEN).graphql(query, variables));
    }
    const documents = [
      'subscription { x }',
      '{ groups { nodes { id } }',
      `{ ${'a: __typename '.repeat(5000)} }`,
      `query { groups(search: "${'\\u0000'}") { nodes { id } } }`,
      `{ group(id: "${'9'.repeat(400)}") { id } }`,
    ];
    for (const query of documents) {
      await attempt(findings, `document ${query.slice(0, 60)}`, () => api(t).graphql(query));
    }
    expect(findings).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});

import request from 'supertest';
import { execute, getIntrospectionQuery, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { ctxFactory } from '../../src/core/context/request-ctx';
import { uncachedSharedCache } from '../../src/core/db/shared-cache';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { JIT_CACHE_LIMITS, jitCacheOf } from '../../src/core/graphql/jit-cache';
import { loaderFactory } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { createGroup, createProject } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, useTestApp } from '../support/test-app';

const t = useTestApp();
const newCtx = ctxFactory(loaderFactory(MODULES));
let schema: GraphQLSchema;

beforeAll(async () => {
  schema = publicView(await buildAppSchema(MODULES)); // what /graphql serves
});

afterEach(() => {
  const cache = jitCacheOf(schema);
  cache.maxEntries = JIT_CACHE_LIMITS.maxEntries;
  cache.maxWeight = JIT_CACHE_LIMITS.maxFields;
  cache.maxEntryWeight = JIT_CACHE_LIMITS.maxDocumentFields;
});

async function seedTree(): Promise<void> {
  for (const n of ['b', 'a', 'c']) {
    const g = await createGroup(t, { path: `jit-${n}`, name: `Jit ${n}`, visibility: 'public' });
    await createGroup(t, { path: `sub-${n}`, name: `Sub ${n}`, parent: g, visibility: 'public' });
    await createProject(t, { namespace: g, visibility: 'public', name: `P ${n}` });
  }
}

/** The same operation run in process by graphql-js `execute` for an anonymous caller, errors as the wire shows them. */
async function graphqlJs(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const ctx = newCtx({
    em: t.orm.em.fork(),
    user: null,
    externalUrl: EXTERNAL_URL,
    secrets: TEST_SECRETS,
    cache: uncachedSharedCache(),
  });
  const result: ExecutionResult = await execute({
    schema,
    document: parse(query),
    contextValue: ctx,
    variableValues: variables,
    operationName,
  });
  return {
    data: result.data,
    errors: result.errors?.map((e) => ({ message: e.message, path: e.path, locations: e.locations })),
  };
}

/** POST /graphql as an anonymous caller, in the same form as graphqlJs(). */
async function overHttp(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const res = await api(t).post('/graphql').send({ query, variables, operationName });
  expect(res.status).toBe(200);
  const errors = res.body.errors as { message: string; path?: unknown; locations?: unknown }[] | undefined;
  return {
    data: res.body.data,
    errors: errors?.map((e) => ({ message: e.message, path: e.path, locations: e.locations })),
  };
}

const TREE = `query Tree($withProjects: Boolean!, $skipPath: Boolean = false, $per: Int) {
  first: groups(first: $per, sort: "name_asc") { count nodes { ...G projects(first: 5) @include(if: $withProjects) { nodes { ...P } } } }
  second: groups(first: 1, sort: "name_desc") { nodes { __typename id ... on Group { fullPath @skip(if: $skipPath) } } }
  __typename
}
fragment G on Group { id name path @skip(if: $skipPath) ...Extra @include(if: $withProjects) subgroups(first: 2) { count nodes { fullPath } } }
fragment Extra on Group { fullName parent { id } }
fragment P on Project { id name pathWithNamespace }`;

describe('POST /graphql through graphql-jit', () => {
  it("answers over HTTP as Apollo's express integration did, without an ETag on POST answers", async () => {
    const res = await api(t).graphql('{ groups(first: 1) { count } }');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.text).toBe('{"data":{"groups":{"count":0}}}\n');
    // GET with the operation in the query string (a fragment after it is not part of it).
    const get = await request(t.app)
      .get('/graphql?query=%7B__typename%7D#ignored')
      .set('Accept', 'application/json')
      .set('apollo-require-preflight', 'true');
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { __typename: 'Query' } });
    // Without a JSON body parser result Apollo sees no operation: 400, as before.
    const empty = await request(t.app)
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .set('apollo-require-preflight', 'true')
      .send('{}');
    expect(empty.status).toBe(400);
  });

  it('compiles a repeated document once and answers it like graphql-js execute', async () => {
    await seedTree();
    const cache = jitCacheOf(schema);
    cache.clear();
    const vars = { withProjects: true, per: 2 };
    const first = await overHttp(TREE, vars);
    // Apollo's answer when no field sets a cache hint (its cache-control plugin is replaced by one header).
    expect((await api(t).graphql(TREE, vars)).headers['cache-control']).toBe('no-store');
    expect(cache.size).toBe(1);
    expect(cache.misses).toBe(1);
    const again = await overHttp(TREE, vars);
    expect(cache.hits).toBe(2);
    expect(again).toEqual(first);
    expect(first.errors).toBeUndefined();
    expect(first.data.first.nodes.map((g: { path: string }) => g.path)).toEqual(['jit-a', 'jit-b']);
    expect(first).toEqual(await graphqlJs(TREE, vars));
    // Other variables, same compiled query: @skip / @include follow them.
    const other = await overHttp(TREE, { withProjects: false, skipPath: true });
    expect(cache.size).toBe(1);
    expect(other.data.first.nodes[0]).toEqual({
      id: expect.stringMatching(/^gid:\/\/gitlab\/Group\/\d+$/),
      name: 'Jit a',
      subgroups: { count: 1, nodes: [{ fullPath: 'jit-a/sub-a' }] },
    });
    expect(other).toEqual(await graphqlJs(TREE, { withProjects: false, skipPath: true }));
  });

  it('keeps at most its bound of compiled documents, least recently used out first', async () => {
    await seedTree();
    const cache = jitCacheOf(schema);
    cache.clear();
    cache.maxEntries = 4;
    const doc = (i: number) => `{ groups(first: ${i + 1}, sort: "name_asc") { count nodes { path } } }`;
    for (let i = 0; i < 10; i += 1) {
      const res = await overHttp(doc(i));
      expect(res.data.groups.nodes).toHaveLength(Math.min(i + 1, 6));
      expect(cache.size).toBeLessThanOrEqual(4);
    }
    expect(cache.size).toBe(4);
    expect(cache.misses).toBe(10);
    await overHttp(doc(9)); // still cached
    expect(cache.hits).toBe(1);
    const evicted = await overHttp(doc(0)); // pushed out: compiled again, same answer
    expect(cache.misses).toBe(11);
    expect(cache.size).toBe(4);
    expect(evicted).toEqual(await graphqlJs(doc(0)));
  });

  it('bounds the fields of the kept documents, and runs a document over the per-document cap uncompiled', async () => {
    await seedTree();
    const cache = jitCacheOf(schema);
    cache.clear();
    cache.maxWeight = 10;
    // 4 fields each (groups, count, nodes, path; the fragment counted where it is spread): two fit in 10.
    const doc = (i: number) =>
      `query Q${i} { groups(first: ${i + 1}, sort: "name_asc") { count nodes { ...F } } } fragment F on Group { path }`;
    for (let i = 0; i < 5; i += 1) await overHttp(doc(i));
    expect([cache.size, cache.weight]).toEqual([2, 8]);
    cache.clear();
    cache.maxEntryWeight = 3;
    const big = await overHttp(doc(0));
    expect([cache.size, cache.weight]).toEqual([1, 1]); // remembered as "graphql-js runs it"
    expect(big).toEqual(await graphqlJs(doc(0)));
    expect(await overHttp(doc(0))).toEqual(big);
    expect(cache.hits).toBe(1);
  });

  it('answers introspection, several operations by name, and errors as graphql-js does', async () => {
    await seedTree();
    const cases: [string, Record<string, unknown>?, string?][] = [
      [getIntrospectionQuery()],
      [
        '{ __type(name: "Group") { name kind fields { name args { name } type { kind name ofType { kind name } } } } __typename }',
      ],
      ['query A { groups { count } } query B { b: groups(first: 1) { nodes { id } } }', {}, 'B'],
      ['query A { groups { count } } query B { b: groups(first: 1) { nodes { id } } }', {}, 'A'],
      // A missing group is null without an error (GitLab's convention for a root lookup).
      ['{ groups { count } group(id: "no-such-group") { id } }'],
      // Root fields are nullable: the refused lookup nulls only `group`, one error with its path and location.
      ['{ groups { count } group(id: "jit-a", fullPath: "jit-a") { id } }'],
      ['query($id: ID!) { groups { count } g: group(id: $id) { fullPath } }', { id: 'jit-a' }],
      ['{ groups(first: 1) { nodes { statistics { storageSize } customAttributes { key } } } }'],
    ];
    for (const [query, variables, name] of cases) {
      const viaHttp = await overHttp(query, variables, name);
      expect(viaHttp).toEqual(await graphqlJs(query, variables, name));
    }
    const missing = await overHttp('{ groups { count } group(id: "no-such-group") { id } }');
    expect(missing).toEqual({ data: { groups: { count: 6 }, group: null }, errors: undefined });
    const refused = await overHttp('{ groups { count } group(id: "jit-a", fullPath: "jit-a") { id } }');
    expect(refused).toEqual({
      data: { groups: { count: 6 }, group: null },
      errors: [
        { message: 'Give exactly one of id and fullPath', path: ['group'], locations: [{ line: 1, column: 20 }] },
      ],
    });
  });

  it('keeps graphql-js variable coercion errors (HTTP 400) and runs mutation fields one after another', async () => {
    const bad = await api(t)
      .post('/graphql')
      .send({ query: 'query($per: Int) { groups(first: $per) { count } }', variables: { per: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
    expect(bad.body.errors).toEqual([
      {
        message: 'Variable "$per" got invalid value "x"; Int cannot represent non-integer value: "x"',
        locations: [{ line: 1, column: 7 }],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ]);
    const twice = await api(t, ROOT_TOKEN).graphql(
      'mutation { a: groupCreate(input: { name: "S1", path: "serial" }) { group { fullPath } errors } b: groupCreate(input: { name: "S2", path: "serial" }) { group { fullPath } errors } }',
    );
    // a ran first, took the path and reports its result; b reports the taken path in its payload's errors.
    expect(twice.body.data).toEqual({
      a: { group: { fullPath: 'serial' }, errors: [] },
      b: { group: null, errors: ['Path has already been taken'] },
    });
    expect(twice.headers['cache-control']).toBe('no-store');
    expect(twice.body.errors).toBeUndefined();
    expect((await api(t, ROOT_TOKEN).graphql('{ group(id: "serial") { name } }')).body.data).toEqual({
      group: { name: 'S1' },
    });
  });

  it('keeps the other root fields of a dashboard query when one lookup fails', async () => {
    const res = await api(t, ROOT_TOKEN).graphql(
      '{ currentUser { username } group(id: "does/not/exist") { id } bad: group(id: "x", fullPath: "x") { id } features { nodes { name } } }',
    );
    expect(res.status).toBe(200);
    // The missing group is null without an error; the refused lookup is null with its error, the rest answered.
    expect(res.body.data).toEqual({
      currentUser: { username: 'root' },
      group: null,
      bad: null,
      features: { nodes: [] },
    });
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'Give exactly one of id and fullPath',
        path: ['bad'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
  });
});

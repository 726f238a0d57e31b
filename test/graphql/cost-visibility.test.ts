import { GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString, getOperationAST, graphql, parse } from 'graphql';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { ctxFactory } from '../../src/core/context/request-ctx';
import { uncachedSharedCache } from '../../src/core/db/shared-cache';
import { loaderFactory } from '../../src/core/module/app-module';
import { MAX_COMPLEXITY, operationCost } from '../../src/core/graphql/query-limits';
import { UNBOUNDED_VALUES_COST, unboundedLists } from '../../src/core/graphql/list-bound';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { createGroup, createProject } from '../support/factories';
import { EXTERNAL_URL, ROOT_TOKEN, TEST_SECRETS, api, useTestApp } from '../support/test-app';

/** queryComplexity, batched requests with caps, lists costed at their real bound. */
const t = useTestApp({ reset: 'once' });

async function cost(query: string, variables: Record<string, unknown> = {}): Promise<number> {
  const doc = parse(query);
  return operationCost(publicView(await buildAppSchema(MODULES)), doc, getOperationAST(doc)!, variables).cost;
}

const batch = (ops: unknown[], token?: string) => {
  const r = request(t.app).post('/graphql').set('content-type', 'application/json');
  return (token ? r.set('PRIVATE-TOKEN', token) : r).send(JSON.stringify(ops));
};

beforeAll(async () => {
  const group = await createGroup(t, { path: 'cost-g', visibility: 'public' });
  for (let i = 0; i < 3; i += 1) await createProject(t, { namespace: group, path: `cost-p${i}`, visibility: 'public' });
});

describe('Query.queryComplexity', () => {
  it('answers the score and depth of its own operation and the limits, to anonymous callers', async () => {
    const res = await api(t).graphql('{ queryComplexity { score limit depth depthLimit } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { queryComplexity: { score: 1 + 4, limit: MAX_COMPLEXITY, depth: 2, depthLimit: 10 } },
    });
  });

  it('counts a nested query by the formula: page size × (fields + first × (fields + tag bound))', async () => {
    const query =
      'query($n: Int) { queryComplexity { score depth } groups(first: $n) { nodes { id projects(first: 3) { nodes { id tagList } } } } }';
    // queryComplexity + score + depth, then groups: 1 + first × (nodes + id + projects + 3 × (nodes + id + 100 tags)).
    const expected = (n: number) => 3 + 1 + n * (1 + 1 + 1 + 3 * (1 + 1 + 100));
    for (const n of [5, 2]) {
      const res = await api(t).graphql(query, { n });
      expect(res.status).toBe(200);
      expect(res.body.data.queryComplexity).toEqual({ score: expected(n), depth: 5 });
      expect(res.body.data.groups.nodes[0].projects.nodes).toHaveLength(3);
      expect(await cost(query, { n })).toBe(expected(n));
    }
  });

  it('counts lists of values at their bound: project tags 100, runner tags (no maximum) and token scopes', async () => {
    expect(await cost('{ runners(first: 10) { nodes { tagList } } }')).toBe(1 + 10 * (1 + UNBOUNDED_VALUES_COST));
    expect(await cost('{ project(id: "1") { tagList } }')).toBe(1 + 100);
    const res = await api(t, ROOT_TOKEN).graphql(
      '{ queryComplexity { score } applicationSettings { domainBlacklist } }',
    );
    expect(res.body.data.queryComplexity.score).toBe(2 + 1 + UNBOUNDED_VALUES_COST);
  });

  it('refuses a query that would serve huge nested lists before it runs', async () => {
    const query =
      '{ queryComplexity { score } groups(first: 100) { nodes { projects(first: 100) { nodes { id tagList } } } } }';
    expect(await cost(query)).toBe(2 + 1 + 100 * (1 + 1 + 100 * (1 + 1 + 100)));
    // An earlier test wrote the settings row, which made the instance forget its throttle settings: one
    // request reads them again, so that only the refused document's own statements are counted.
    await api(t).graphql('{ __typename }').expect(200);
    const { result: res, count } = await t.countQueries(() => api(t).graphql(query));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: `Query complexity ${2 + 1 + 100 * (2 + 100 * 102)} exceeds the maximum of 30000`,
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    expect(res.body.data).toBeUndefined();
    expect(count).toBe(0);
  });

  it('costs features by the page it asks for (first, default 20), not by the 1,000 flags the instance may hold', async () => {
    for (const name of ['f_one', 'f_two', 'f_three', 'f_four', 'f_five'])
      await api(t, ROOT_TOKEN).post(`/api/v4/features/${name}`).send({ value: 'true' }).expect(201);
    const query = `{ queryComplexity { score } features(first: 20) { nodes { name state gates { key value } } } }`;
    // queryComplexity + score, then features: 1 + 20 × (nodes + name + state + gates (1 + 5 kinds × (key + value))).
    const expected = 2 + 1 + 20 * (1 + 1 + 1 + (1 + 5 * 2));
    const res = await api(t, ROOT_TOKEN).graphql(query);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.features.nodes).toHaveLength(5);
    expect(res.body.data.queryComplexity.score).toBe(expected);
    expect(await cost(query)).toBe(expected);
    // The default page is 20 too; a larger page costs more, so the cost follows the page and not the list's bound.
    expect(await cost(query.replace('(first: 20)', ''))).toBe(expected);
    expect(await cost(query.replace('first: 20', 'first: 40'))).toBe(2 + 1 + 40 * 14);
  });

  it('answers the same score for an operation run in process, outside Apollo (computed from the resolve info)', async () => {
    const source = '{ queryComplexity { score depth } groups(first: 4) { nodes { id } } }';
    const contextValue = ctxFactory(loaderFactory(MODULES))({
      em: t.orm.em.fork(),
      user: null,
      externalUrl: EXTERNAL_URL,
      secrets: TEST_SECRETS,
      cache: uncachedSharedCache(),
    });
    const res = await graphql({ schema: publicView(await buildAppSchema(MODULES)), source, contextValue });
    expect(res.data?.queryComplexity).toEqual({ score: await cost(source), depth: 3 });
  });

  it('every list field declares its bound, lists of values included (the schema build refuses otherwise)', async () => {
    expect(unboundedLists(await buildAppSchema(MODULES))).toEqual([]);
    const bare = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { tags: { type: new GraphQLList(GraphQLString) } } }),
    });
    expect(unboundedLists(bare)).toEqual(['Query.tags']);
  });
});

describe('POST /graphql with a JSON array (batch)', () => {
  it('answers an array of results, in order, each operation with its own score', async () => {
    const res = await batch([
      { query: '{ queryComplexity { score } }' },
      {
        query: 'query Q($p: Int) { queryComplexity { score } groups(first: $p) { nodes { id } } }',
        variables: { p: 3 },
        operationName: 'Q',
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({ data: { queryComplexity: { score: 2 } } });
    expect(res.body[1].data.queryComplexity).toEqual({ score: 2 + 1 + 3 * 2 });
    expect(res.body[1].data.groups.nodes).toHaveLength(1);
  });

  it('runs operations one after another: a query sees the mutation before it', async () => {
    const res = await batch(
      [
        {
          query:
            'mutation { broadcastMessageCreate(input: { message: "batched" }) { broadcastMessage { id } errors } }',
        },
        { query: '{ broadcastMessages { nodes { message } } }' },
      ],
      ROOT_TOKEN,
    );
    expect(res.status).toBe(200);
    expect(res.body[0].data.broadcastMessageCreate.broadcastMessage.id).toBeDefined();
    expect(res.body[0].data.broadcastMessageCreate.errors).toEqual([]);
    expect(res.body[1].data.broadcastMessages.nodes.map((m: { message: string }) => m.message)).toContain('batched');
  });

  it('refuses more than 10 operations with 400', async () => {
    const res = await batch(Array.from({ length: 11 }, () => ({ query: '{ queryComplexity { score } }' })));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { message: 'A batch may hold at most 10 operations; this one has 11', extensions: { code: 'BATCH_TOO_LARGE' } },
      ],
    });
    expect((await batch([])).status).toBe(400);
  });

  it('refuses a batch whose summed complexity exceeds 30,000 before any operation runs', async () => {
    const heavy = '{ groups(first: 2) { nodes { projects(first: 100) { nodes { id tagList } } } } }';
    const each = await cost(heavy);
    expect(each).toBeLessThanOrEqual(MAX_COMPLEXITY);
    const mutation = 'mutation { broadcastMessageCreate(input: { message: "never" }) { broadcastMessage { id } } }';
    const res = await batch([{ query: mutation }, { query: heavy }, { query: heavy }], ROOT_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      message: `Batch complexity ${2 * each + (await cost(mutation))} (all operations together) exceeds the maximum of 30000`,
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    const messages = await api(t, ROOT_TOKEN).graphql('{ broadcastMessages { nodes { message } } }');
    expect(messages.body.data.broadcastMessages.nodes.map((m: { message: string }) => m.message)).not.toContain(
      'never',
    );
  });

  it('checks each operation against the single-request limits', async () => {
    const deep = await batch([
      { query: '{ queryComplexity { score } }' },
      { query: '{ groups(first: 100) { nodes { projects(first: 100) { nodes { id tagList } } } } }' },
    ]);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toMatch(
      /^Operation 2 of the batch: Query complexity \d+ exceeds the maximum of 30000$/,
    );
    const aliases = await batch([
      { query: `{ ${Array.from({ length: 101 }, (_x, i) => `a${i}: __typename`).join(' ')} }` },
    ]);
    expect(aliases.status).toBe(400);
    expect(aliases.body.errors[0]).toEqual({
      message: 'Operation 1 of the batch: Query has 101 aliases; the maximum is 100',
      extensions: { code: 'QUERY_TOO_LARGE' },
    });
  });

  it('refuses a hostile batch (every operation near the alias cap) fast: the caps apply to the batch as a whole', async () => {
    const near = (k: number) => ({
      query: `{ ${Array.from({ length: 99 }, (_x, i) => `a${k}x${i}: queryComplexity { score }`).join(' ')} }`,
    });
    const started = Date.now();
    const res = await batch(Array.from({ length: 10 }, (_x, k) => near(k)));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        { message: 'The batch has 198 aliases in all; the maximum is 100', extensions: { code: 'QUERY_TOO_LARGE' } },
      ],
    });
  });

  it('refuses a piece without its query text (a persisted query hash would escape the batch total)', async () => {
    const query = '{ groups(first: 2) { nodes { projects(first: 100) { nodes { id tagList } } } } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const registered = await api(t)
      .post('/graphql')
      .send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(registered.status).toBe(200);
    const res = await batch(
      Array.from({ length: 3 }, () => ({ extensions: { persistedQuery: { version: 1, sha256Hash } } })),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          message: 'Operation 1 of the batch has no query text (a batch takes no persisted query hashes)',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });

  it('never batches a GET', async () => {
    const res = await request(t.app)
      .get('/graphql?query=%7B%20queryComplexity%20%7B%20score%20%7D%20%7D')
      .set('content-type', 'application/json')
      .send(JSON.stringify([{ query: '{ __typename }' }]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { queryComplexity: { score: 2 } } });
  });
});

import { GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString, getOperationAST, parse } from 'graphql';
import { unboundedLists } from '../../src/core/graphql/list-bound';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { MAX_COMPLEXITY, operationCost } from '../../src/core/graphql/query-limits';
import { MODULES } from '../../src/modules';
import { createGroup, createProject, createUser, shareProject } from '../support/factories';
import { ROOT_TOKEN, api, useTestApp } from '../support/test-app';

/** Unpaged lists are served within what they are costed at, and the document guard checks the key Apollo runs. */
const t = useTestApp({ reset: 'once' });

/** The cost of `query` on the internal view (REST's fields, such as the group detail's projects, included). */
async function cost(query: string): Promise<number> {
  const doc = parse(query);
  return operationCost(await buildAppSchema(MODULES), doc, getOperationAST(doc)!).cost;
}

describe('unpaged lists are served up to their declared bound', () => {
  let groupId = 0;
  let sharedWithId = 0;
  let ownerToken = '';
  beforeAll(async () => {
    // The attacker: an ordinary user with one group of their own and 105 projects in it.
    const owner = await createUser(t, { username: 'f2-owner' });
    ownerToken = owner.token;
    const group = await createGroup(t, { path: 'f2-group', visibility: 'public' });
    const other = await createGroup(t, { path: 'f2-shared', visibility: 'public' });
    await t.orm.em
      .getConnection()
      .execute('insert into group_members (group_id, user_id, access_level) values (?, ?, 50), (?, ?, 50)', [
        group.id,
        owner.id,
        other.id,
        owner.id,
      ]);
    for (let i = 0; i < 105; i += 1) {
      const p = await createProject(t, { namespace: group, path: `f2-p${i}`, visibility: 'public' });
      await shareProject(t, p, other, 30);
    }
    groupId = group.id;
    sharedWithId = other.id;
  });

  it('every list of objects without perPage declares @MaxItems (the schema build refuses otherwise)', async () => {
    expect(unboundedLists(await buildAppSchema(MODULES))).toEqual([]);
    const Item = new GraphQLObjectType({ name: 'Item', fields: { a: { type: GraphQLString } } });
    const bare = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { items: { type: new GraphQLList(Item) } } }),
    });
    expect(unboundedLists(bare)).toEqual(['Query.items']);
  });

  it("the group detail's projects and shared projects (internal, REST's) are costed at 100; GraphQL pages Group.projects", async () => {
    expect(await cost(`{ group(id: "1") { detailProjects { id } } }`)).toBe(1 + 1 + 100 * 1);
    expect(await cost(`{ group(id: "1") { detailSharedProjects { id } } }`)).toBe(1 + 1 + 100 * 1);
    // The public view has no unpaged group project list: Group.projects is a connection, 20 by default, at most 100.
    const res = await api(t, ownerToken).graphql(
      `{ group(id: "${groupId}") { first: projects { count nodes { id: databaseId } } most: projects(first: 500) { nodes { id: databaseId } pageInfo { hasNextPage } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const { first, most } = res.body.data.group;
    expect(first.count).toBe(105);
    expect(first.nodes).toHaveLength(20);
    expect(most.nodes).toHaveLength(100);
    expect(most.pageInfo.hasNextPage).toBe(true);
    const detail = await api(t, ownerToken).graphql(`{ group(id: "${groupId}") { detailProjects { id } } }`);
    expect(detail.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('REST GET /groups/:id: projects and shared_projects are the first 100 by id (GET /groups/:id/projects has them all)', async () => {
    const detail = await api(t, ownerToken).get(`/api/v4/groups/${groupId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.projects).toHaveLength(100);
    const ids = detail.body.projects.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const shared = await api(t, ownerToken).get(`/api/v4/groups/${sharedWithId}`);
    expect(shared.body.shared_projects).toHaveLength(100);
    const sharedIds = shared.body.shared_projects.map((p: { id: number }) => p.id);
    expect(sharedIds).toEqual([...sharedIds].sort((a, b) => a - b));
    const all = await api(t, ownerToken).get(`/api/v4/groups/${groupId}/projects?per_page=100&page=2`);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(5);
    expect(all.headers['x-total']).toBe('105');
  });

  it('refuses 100 aliases of a group’s projects before they run', async () => {
    const fields = 'id name path description visibility webUrl createdAt lastActivityAt archived';
    const query = `{ ${Array.from({ length: 100 }, (_x, i) => `a${i}: group(id: "${groupId}") { projects(first: 100) { nodes { ${fields} } } }`).join(' ')} }`;
    expect(await cost(query)).toBeGreaterThan(MAX_COMPLEXITY);
    const res = await api(t, ownerToken).graphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.data).toBeUndefined();
  });

  it('Project.sharedWithGroups, Runner.projects and the admin lists are costed at their bounds', async () => {
    expect(await cost('{ project(id: "1") { sharedWithGroups { groupId } } }')).toBe(1 + 1 + 100);
    // REST's runner detail (internal detailProjects) lists up to 100 projects; GraphQL's projects is a connection.
    expect(await cost('{ runner(id: "1") { detailProjects { id } } }')).toBe(1 + 1 + 100);
    expect(await cost('{ runner(id: "1") { projects { nodes { id } } } }')).toBe(1 + 1 + 20 * (1 + 1));
    // REST's GET /features (internal featureList) answers every flag; GraphQL's features is a connection.
    expect(await cost('{ featureList { name gates { key } } }')).toBe(1 + 1000 * (1 + 1 + 5));
    expect(await cost('{ features { nodes { name gates { key } } } }')).toBe(1 + 20 * (1 + 1 + 1 + 5));
    expect(await cost('{ groupCustomAttributes(groupId: "1") { key } }')).toBe(1 + 100);
  });
});

describe('the document guard reads the document where Apollo does', () => {
  const big = `{ ${Array.from({ length: 101 }, (_x, i) => `a${i}: currentUser { id }`).join(' ')} }`;
  const get = (search: string) => api(t).get(`/graphql?${search}`).set('Apollo-Require-Preflight', 'true');

  it('refuses a GET whose query key is repeated in bracketed form', async () => {
    const res = await get(`query=${encodeURIComponent(big)}&query[]=x`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          message: "The 'query' search parameter may only be specified once, as a plain key.",
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
  });

  it('refuses repeated and bracketed forms of every key Apollo reads', async () => {
    for (const search of [
      'query={a}&query={b}',
      'query[0]={a}',
      'query={a}&variables[x]=1',
      'query={a}&operationName=A&operationName=B',
      'extensions[a]=1&query={a}',
    ]) {
      const res = await get(search);
      expect([search, res.status, res.body.errors?.[0]?.extensions?.code]).toEqual([search, 400, 'BAD_REQUEST']);
    }
  });

  it('applies the document caps to the GET document Apollo would run', async () => {
    const res = await get(`query=${encodeURIComponent(big)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({
      message: 'Query has 101 aliases; the maximum is 100',
      extensions: { code: 'QUERY_TOO_LARGE' },
    });
  });

  it('still answers ordinary GET and POST operations', async () => {
    const viaGet = await api(t, ROOT_TOKEN)
      .get(`/graphql?query=${encodeURIComponent('{ currentUser { username } }')}`)
      .set('Apollo-Require-Preflight', 'true');
    expect(viaGet.status).toBe(200);
    expect(viaGet.body).toEqual({ data: { currentUser: { username: 'root' } } });
    const viaPost = await api(t, ROOT_TOKEN).graphql('{ currentUser { username } }');
    expect(viaPost.body).toEqual({ data: { currentUser: { username: 'root' } } });
  });
});

describe('nested lists take a limit within their bound', () => {
  it('serves and costs `limit` items; outside 1..bound is a 400-style field error', async () => {
    const group = await createGroup(t, { path: 'limit-group', visibility: 'public' });
    const project = await createProject(t, { namespace: group, path: 'limit-p', visibility: 'public' });
    for (let i = 0; i < 3; i += 1)
      await shareProject(t, project, await createGroup(t, { path: `limit-g${i}`, visibility: 'public' }), 30);
    const res = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${project.id}") { two: sharedWithGroups(limit: 2) { groupId } all: sharedWithGroups { groupId } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project.two).toHaveLength(2);
    expect(res.body.data.project.all).toHaveLength(3);
    expect(
      await cost(
        '{ groups(perPage: 20) { nodes { detailProjects(limit: 50) { id sharedWithGroups(limit: 5) { groupId } } } } }',
      ),
    ).toBe(1 + 20 * (1 + 1 + 50 * (1 + 1 + 5)));
    for (const limit of [0, 101, -1]) {
      const bad = await api(t, ROOT_TOKEN).graphql(
        `{ project(id: "${project.id}") { sharedWithGroups(limit: ${limit}) { groupId } } }`,
      );
      expect(bad.body.errors[0].message).toBe('limit must be between 1 and 100');
    }
  });
});

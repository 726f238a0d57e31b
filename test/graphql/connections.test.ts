import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getNamedType, getNullableType, isNonNullType, isObjectType } from 'graphql';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { relayStylePagination } from '@apollo/client/utilities';
import { buildAppSchema } from '../../src/core/graphql/schema';
import { publicView } from '../../src/core/graphql/views';
import { MODULES } from '../../src/modules';
import { addGroupMember, createGroup, createProject, createUser, type TestGroup } from '../support/factories';
import { addBulkProjects } from '../support/bulk';
import { createJob, createRunner } from '../runners/runner-factories';
import { ROOT_TOKEN, api, useTestApp } from '../support/test-app';

/**
 * Relay connections on every list (docs/graphql.md#connections-relay): edges, pageInfo,
 * count and first/after/last/before, cut by keyset underneath, next to the page fields REST reads.
 */
const t = useTestApp({ reset: 'once' });

type Edge = { cursor: string; node: { id: unknown } };
type PageInfo = {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
};
type Conn = { edges: Edge[]; nodes: { id: unknown }[]; pageInfo: PageInfo; count: number | null };

let parents: TestGroup[] = [];
let jobRunner = 0;

beforeAll(async () => {
  // Groups with equal names under different parents: ties on name, broken by id.
  parents = [];
  for (let i = 0; i < 4; i += 1)
    parents.push(await createGroup(t, { path: `conn-parent-${i}`, name: `Parent ${3 - i}`, visibility: 'public' }));
  for (const p of parents) {
    for (const name of ['Same', 'Tie', 'Zeta'])
      await createGroup(t, { path: `${p.path}-${name.toLowerCase()}`, name, parent: p, visibility: 'public' });
  }
  // Projects created within the same milliseconds: ties on created_at.
  for (let i = 0; i < 14; i += 1)
    await createProject(t, { namespace: parents[i % 4], path: `conn-p${i}`, visibility: i % 3 ? 'public' : 'private' });
  const users = [];
  for (let i = 0; i < 9; i += 1) users.push(await createUser(t, { username: `conn-user-${i}` }));
  for (const [i, u] of users.entries()) await addGroupMember(t, parents[0], u, [10, 20, 30, 40][i % 4]);
  const project = {
    id: (await createProject(t, { namespace: parents[1], path: 'conn-jobs', visibility: 'public' })).id,
  };
  for (let i = 0; i < 7; i += 1) await createRunner(t, { shared: true, description: `conn runner ${i}` });
  const runner = await createRunner(t, { shared: true, description: 'conn busy runner' });
  jobRunner = runner.id;
  for (let i = 0; i < 11; i += 1) await createJob(t, { runner, project, status: i % 2 ? 'success' : 'failed' });
  const other = await createRunner(t, { shared: true, description: 'conn other runner' });
  for (let i = 0; i < 3; i += 1) await createJob(t, { runner: other, project });
});

const gqlAs = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await api(t, ROOT_TOKEN).graphql(query, variables);
  expect(res.status).toBe(200);
  return res.body as { data?: Record<string, unknown>; errors?: { message: string; extensions: { code: string } }[] };
};

interface ListCase {
  name: string;
  /** The list's field with its filters: `$first $after $last $before` are declared. */
  field: string;
  /** The object the list is a field of, when it is nested (`group(fullPath: "…")`). */
  parent?: string;
  /** The connection object in `data`. */
  pick: (data: Record<string, unknown>) => Conn;
}

const VARS = '$first: Int, $after: String, $last: Int, $before: String';
const CONN =
  'edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } count';

const root = (name: string) => (d: Record<string, unknown>) => d[name] as Conn;

const CASES: ListCase[] = [
  {
    name: 'groups by name (ties)',
    field: 'groups(allAvailable: true, orderBy: NAME, first: $first, after: $after, last: $last, before: $before)',
    pick: root('groups'),
  },
  {
    name: 'groups by path, descending',
    field: 'groups(allAvailable: true, sort: "path_desc", first: $first, after: $after, last: $last, before: $before)',
    pick: root('groups'),
  },
  {
    name: 'projects (created_at desc, ties)',
    field: 'projects(first: $first, after: $after, last: $last, before: $before)',
    pick: root('projects'),
  },
  {
    name: 'projects by name',
    field: 'projects(sort: "name_asc", first: $first, after: $after, last: $last, before: $before)',
    pick: root('projects'),
  },
  {
    name: 'users',
    field: 'users(first: $first, after: $after, last: $last, before: $before)',
    pick: root('users'),
  },
  {
    name: 'runners',
    field: 'runners(first: $first, after: $after, last: $last, before: $before)',
    pick: root('runners'),
  },
  {
    name: 'group members',
    parent: 'group(fullPath: "conn-parent-0")',
    field: 'groupMembers(relations: [DIRECT], first: $first, after: $after, last: $last, before: $before)',
    pick: (d) => (d.group as Record<string, Conn>).groupMembers,
  },
];

/** The list with its selection, under its parent when it has one. */
const listOf = (c: ListCase, selection: string) =>
  c.parent ? `${c.parent} { ${c.field} { ${selection} } }` : `${c.field} { ${selection} }`;
const query = (c: ListCase) => `query(${VARS}) { ${listOf(c, CONN)} }`;

/** The list's order as one page holds it (every case has fewer than 100 items): what the walks must reproduce. */
async function offsetOrder(c: ListCase): Promise<unknown[]> {
  const body = await gqlAs(`query(${VARS}) { ${listOf(c, 'nodes { id } count pageInfo { hasNextPage }')} }`, {
    first: 100,
  });
  expect(body.errors).toBeUndefined();
  const conn = c.pick(body.data!);
  expect(conn.pageInfo.hasNextPage).toBe(false);
  expect(conn.nodes).toHaveLength(conn.count!);
  return conn.nodes.map((n) => n.id);
}

async function walk(
  c: ListCase,
  dir: 'forward' | 'backward',
  size: number,
): Promise<{ ids: unknown[]; pages: Conn[] }> {
  const pages: Conn[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i += 1) {
    const vars = dir === 'forward' ? { first: size, after: cursor } : { last: size, before: cursor };
    const body = await gqlAs(query(c), vars);
    expect(body.errors).toBeUndefined();
    const conn = c.pick(body.data!);
    pages.push(conn);
    expect(conn.edges.map((e) => e.node.id)).toEqual(conn.nodes.map((n) => n.id));
    if (conn.edges.length) {
      expect(conn.pageInfo.startCursor).toBe(conn.edges[0].cursor);
      expect(conn.pageInfo.endCursor).toBe(conn.edges[conn.edges.length - 1].cursor);
    }
    const more = dir === 'forward' ? conn.pageInfo.hasNextPage : conn.pageInfo.hasPreviousPage;
    if (!more) break;
    cursor = dir === 'forward' ? conn.pageInfo.endCursor : conn.pageInfo.startCursor;
  }
  const ordered = dir === 'forward' ? pages : [...pages].reverse();
  return { ids: ordered.flatMap((p) => p.edges.map((e) => e.node.id)), pages };
}

describe('forward and backward walks equal the offset order', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const expected = await offsetOrder(c);
    expect(expected.length).toBeGreaterThan(6);
    expect(new Set(expected).size).toBe(expected.length);
    for (const size of [1, 4]) {
      const fwd = await walk(c, 'forward', size);
      expect(fwd.ids).toEqual(expected);
      // pageInfo at both ends: the first page has nothing before it, the last nothing after it.
      expect(fwd.pages[0].pageInfo.hasPreviousPage).toBe(false);
      expect(fwd.pages[fwd.pages.length - 1].pageInfo.hasNextPage).toBe(false);
      for (const p of fwd.pages.slice(1)) expect(p.pageInfo.hasPreviousPage).toBe(true);
      for (const p of fwd.pages.slice(0, -1)) expect(p.pageInfo.hasNextPage).toBe(true);
      for (const p of fwd.pages) expect(p.count).toBe(expected.length);
      const back = await walk(c, 'backward', size);
      expect(back.ids).toEqual(expected);
      expect(back.pages[0].pageInfo.hasNextPage).toBe(false);
      expect(back.pages[back.pages.length - 1].pageInfo.hasPreviousPage).toBe(false);
      for (const p of back.pages.slice(0, -1)) expect(p.pageInfo.hasPreviousPage).toBe(true);
      for (const p of back.pages.slice(1)) expect(p.pageInfo.hasNextPage).toBe(true);
    }
  });

  it('a page in the middle gives cursors that after (forward) and before (backward) continue from', async () => {
    const c = CASES[0];
    const expected = await offsetOrder(c);
    const first = c.pick((await gqlAs(query(c), { first: 3 })).data!);
    const body = await gqlAs(query(c), { first: 3, after: first.pageInfo.endCursor });
    const page = c.pick(body.data!);
    expect(page.nodes.map((n) => n.id)).toEqual(expected.slice(3, 6));
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    expect(page.count).toBe(expected.length);
    const next = c.pick((await gqlAs(query(c), { first: 4, after: page.pageInfo.endCursor })).data!);
    expect(next.nodes.map((n) => n.id)).toEqual(expected.slice(6, 10));
    const prev = c.pick((await gqlAs(query(c), { last: 2, before: page.pageInfo.startCursor })).data!);
    expect(prev.nodes.map((n) => n.id)).toEqual(expected.slice(1, 3));
    expect(prev.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it("a project's users (members across its relations, one per user) walk both ways; another list's cursor does not fit", async () => {
    const c: ListCase = {
      name: 'project users',
      parent: 'project(fullPath: "conn-parent-0/conn-p0")',
      field:
        'projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS], search: "conn-user", first: $first, after: $after, last: $last, before: $before)',
      pick: (d) => (d.project as Record<string, Conn>).projectMembers,
    };
    const expected = await offsetOrder(c);
    expect(expected).toHaveLength(9);
    for (const dir of ['forward', 'backward'] as const) expect((await walk(c, dir, 4)).ids).toEqual(expected);
    const keyset = CASES[0].pick((await gqlAs(query(CASES[0]), { first: 1 })).data!).pageInfo.endCursor;
    expect((await gqlAs(query(c), { first: 1, after: keyset })).errors?.[0]).toMatchObject({
      message: 'cursor is invalid',
    });
  });
});

describe('arguments', () => {
  const c = CASES[0];

  it.each([
    [{ first: 2, last: 2 }, 'Can only provide either `first` or `last`, not both'],
    [{ first: -1 }, 'first must not be negative'],
    [{ after: 'garbage' }, 'cursor is invalid'],
    [{ after: Buffer.from('{"v":"x","id":-4}').toString('base64url') }, 'cursor is invalid'],
    [{ before: Buffer.from('{"o":-1}').toString('base64url') }, 'cursor is invalid'],
  ])('%j → BAD_USER_INPUT %s', async (vars, message) => {
    const body = await gqlAs(query(c), vars);
    expect(body.data).toEqual({ groups: null });
    expect(body.errors).toEqual([
      expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
    ]);
  });

  it.each(['page: 2', 'perPage: 5', 'pagination: KEYSET', 'cursor: "x"'])(
    'REST paging (%s) is no argument of the public view',
    async (arg) => {
      const res = await api(t, ROOT_TOKEN).graphql(`{ groups(${arg}, first: 2) { nodes { id } } }`);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining(`Unknown argument "${arg.split(':')[0]}"`),
          extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
        }),
      ]);
    },
  );

  it('a cursor whose value does not fit the sort column is invalid, not a server error', async () => {
    const forged = Buffer.from(JSON.stringify({ v: 'not a time', id: 3 })).toString('base64url');
    const body = await gqlAs(
      'query($a: String) { projects(orderBy: CREATED_AT, first: 2, after: $a) { nodes { id } } }',
      { a: forged },
    );
    expect(body.errors?.[0]).toMatchObject({ message: 'cursor is invalid', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('first above 100 is served as 100; first: 0 answers no edges and whether items follow', async () => {
    const big = c.pick((await gqlAs(query(c), { first: 500 })).data!);
    expect(big.edges.length).toBeLessThanOrEqual(100);
    const none = c.pick((await gqlAs(query(c), { first: 0 })).data!);
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });
  });

  it('REST ignores first/after/last/before (they are GraphQL-only arguments)', async () => {
    const plain = await api(t, ROOT_TOKEN).get('/api/v4/groups?per_page=3');
    const withFirst = await api(t, ROOT_TOKEN).get('/api/v4/groups?per_page=3&first=1&last=2&after=x');
    expect(withFirst.status).toBe(200);
    expect(withFirst.body).toEqual(plain.body);
    expect(withFirst.headers['x-total']).toBe(plain.headers['x-total']);
  });
});

describe('every top-level list takes the connection arguments', () => {
  it('each Query field returning a page answers first: 1 with one edge at most and its pageInfo', async () => {
    const schema = publicView(await buildAppSchema(MODULES));
    const fields = Object.values(schema.getQueryType()!.getFields()).filter((f) => {
      const type = getNamedType(f.type);
      return isObjectType(type) && 'edges' in type.getFields() && !f.args.some((a) => isNonNullType(a.type));
    });
    expect(fields.length).toBeGreaterThan(10);
    for (const f of fields) {
      const body = await gqlAs(`{ ${f.name}(first: 1) { edges { cursor } pageInfo { hasNextPage endCursor } count } }`);
      const errors = (body.errors ?? []).filter(
        (e) => e.extensions.code !== 'FORBIDDEN' && e.extensions.code !== 'NOT_FOUND',
      );
      expect([f.name, errors]).toEqual([f.name, []]);
      const page = body.data?.[f.name] as { edges: unknown[] } | null;
      if (page) expect([f.name, page.edges.length <= 1]).toEqual([f.name, true]);
    }
    expect(getNullableType(fields[0].type)).toBeDefined();
  });
});

describe('nested lists', () => {
  it('Runner.jobs takes first/after and last/before in one statement for every runner of the page', async () => {
    const all = await gqlAs('query($id: CiRunnerID!) { runner(id: $id) { jobs(first: 100) { nodes { id } } } }', {
      id: jobRunner,
    });
    const expected = (all.data!.runner as { jobs: { nodes: { id: number }[] } }).jobs.nodes.map((n) => n.id);
    expect(expected).toHaveLength(11);
    const q =
      'query($after: String) { runners(first: 100) { nodes { id: databaseId jobs(first: 4, after: $after) { count edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage endCursor } } } } }';
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const { result: body, count } = await t.countQueries(() => gqlAs(q, { after }));
      const runners = (body.data!.runners as { nodes: { id: number; jobs: Conn }[] }).nodes;
      const mine = runners.find((r) => r.id === jobRunner)!.jobs;
      expect(mine.count).toBe(11);
      seen.push(...mine.edges.map((e) => e.node.id as number));
      // runners + their count, the jobs of all runners, the jobs' counts (all runners, one statement), job relations.
      expect(count).toBeLessThanOrEqual(6);
      if (!mine.pageInfo.hasNextPage) break;
      after = mine.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
    const last = await gqlAs(
      'query($id: CiRunnerID!) { runner(id: $id) { jobs(last: 3, status: SUCCESS) { nodes { id } pageInfo { hasPreviousPage hasNextPage } } } }',
      { id: jobRunner },
    );
    const jobs = (last.data!.runner as { jobs: { nodes: { id: number }[]; pageInfo: PageInfo } }).jobs;
    expect(jobs.nodes.map((n) => n.id)).toEqual(expected.filter((_, i) => i % 2 === 1).slice(-3));
    expect(jobs.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false });
  });

  it('Group.subgroups with first and after, per parent', async () => {
    const q =
      'query($after: String) { groups(topLevelOnly: true, search: "conn-parent", first: 10) { nodes { fullPath subgroups(first: 2, after: $after) { count nodes { name } pageInfo { hasNextPage endCursor } } } } }';
    const body = await gqlAs(q);
    const nodes = (
      body.data!.groups as { nodes: { fullPath: string; subgroups: Conn & { nodes: { name: string }[] } }[] }
    ).nodes;
    expect(nodes).toHaveLength(4);
    for (const g of nodes) {
      expect(g.subgroups.nodes.map((n) => (n as unknown as { name: string }).name)).toEqual(['Same', 'Tie']);
      expect(g.subgroups.count).toBe(3);
      expect(g.subgroups.pageInfo.hasNextPage).toBe(true);
    }
    const next = await gqlAs(
      'query($after: String, $path: ID!) { group(id: $path) { subgroups(first: 2, after: $after) { nodes { name } pageInfo { hasNextPage } } } }',
      {
        path: nodes[0].fullPath,
        after: nodes[0].subgroups.pageInfo.endCursor,
      },
    );
    expect((next.data!.group as { subgroups: unknown }).subgroups).toEqual({
      nodes: [{ name: 'Zeta' }],
      pageInfo: { hasNextPage: false },
    });
  });
});

describe('cost', () => {
  it('counts edges and nodes by first/last', async () => {
    const score = async (q: string) =>
      ((await gqlAs(`{ queryComplexity { score } ${q} }`)).data!.queryComplexity as { score: number }).score;
    const base = await score('groups(first: 7) { nodes { id } }');
    expect(await score('groups(last: 7) { nodes { id } }')).toBe(base);
    expect(await score('groups(last: 7) { edges { node { id } } }')).toBe(base + 7);
    expect(await score('groups(first: 3) { nodes { id } }')).toBeLessThan(base);
  });
});

describe('Apollo Client 3: relayStylePagination with fetchMore', () => {
  it('pages through groups until hasNextPage is false; the cached edges are the whole list', async () => {
    const server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new ApolloClient({
        link: new HttpLink({
          uri: `http://127.0.0.1:${port}/graphql`,
          fetch,
          headers: { 'PRIVATE-TOKEN': ROOT_TOKEN },
        }),
        cache: new InMemoryCache({
          typePolicies: {
            Query: { fields: { groups: relayStylePagination(['search', 'orderBy', 'sort', 'allAvailable']) } },
          },
        }),
      });
      const GROUPS = gql`
        query Groups($first: Int!, $after: String) {
          groups(allAvailable: true, orderBy: NAME, first: $first, after: $after) {
            edges {
              cursor
              node {
                id
                fullPath
                name
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
            count
          }
        }
      `;
      const expected = await offsetOrder(CASES[0]);
      const subscriptions: { unsubscribe(): void }[] = [];
      const watch = client.watchQuery<{
        groups: { edges: { node: { id: number } }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
      }>({ query: GROUPS, variables: { first: 3 } });
      // Subscribed as a component would be: the cache then feeds every merged page back to it.
      let result = await new Promise<ReturnType<typeof watch.getCurrentResult>>((resolve, reject) => {
        const sub = watch.subscribe({ next: (r) => !r.loading && resolve(r), error: reject });
        subscriptions.push(sub);
      });
      let fetches = 1;
      while (result.data.groups.pageInfo.hasNextPage) {
        await watch.fetchMore({ variables: { after: result.data.groups.pageInfo.endCursor } });
        result = watch.getCurrentResult();
        fetches += 1;
      }
      expect(fetches).toBe(Math.ceil(expected.length / 3));
      expect(result.data.groups.edges.map((e) => e.node.id)).toEqual(expected);
      const cached = client.readQuery<{ groups: { edges: { node: { id: number } }[] } }>({
        query: GROUPS,
        variables: { first: 3 },
      });
      expect(cached!.groups.edges.map((e) => e.node.id)).toEqual(expected);
      subscriptions.forEach((s) => s.unsubscribe());
      client.stop();
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('count is bounded like the REST totals', () => {
  it('null above 10,000 items, exact below', async () => {
    const big = await createGroup(t, { path: 'conn-bulk', visibility: 'public' });
    await addBulkProjects(t, big.id, 1, 10_001, 'public');
    const body = await gqlAs(
      '{ a: projects(first: 2) { count edges { cursor } } b: projects(last: 2) { count } c: projects(first: 2, search: "bulk-1000") { count } }',
    );
    // bulk-1000, bulk-10000, bulk-10001.
    expect(body.data).toMatchObject({ a: { count: null }, b: { count: null }, c: { count: 3 } });
  });

  it('a deep cursor page reads the (sort column, id) index from the cursor on: no sort, no scan of the rows before', async () => {
    await t.orm.em.getConnection().execute('analyze projects');
    const deep = await gqlAs('{ projects(orderBy: CREATED_AT, last: 1) { pageInfo { startCursor } } }');
    const after = (deep.data!.projects as { pageInfo: PageInfo }).pageInfo.startCursor;
    const { sql } = await t.captureQueries(() =>
      gqlAs('query($a: String) { projects(orderBy: CREATED_AT, first: 20, after: $a) { nodes { id } } }', { a: after }),
    );
    const page = sql.find((s) => s.includes('page_cursor_v'))!;
    expect(page).toBeDefined();
    const plan = JSON.stringify(await t.orm.em.getConnection().execute(`explain (format json) ${page}`));
    expect(plan).toContain('projects_created_idx');
    expect(plan).not.toContain('"Node Type":"Sort"');
  });
});

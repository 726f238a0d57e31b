import { createGroup, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const COUNT_LIMIT = 10_000;

/**
 * A selective list answers in time that does not depend on where its matches lie in the order
 * (docs/growth.md#far-end-matches). Data: a million projects `b<i>`, then 1,000 projects named
 * `zzfar archive` (one per group, so the planner counts that name among its most common values and
 * knows there are about a thousand) that are the oldest and the last by name, each with the custom
 * attribute zzfar=archive. Assuming them spread along the order, the planner would walk
 * projects_created_idx (or projects_name_idx) over the million other rows to fill a page; the plan
 * of each request is asserted to filter out no more rows than there are matches.
 * Keyset and connection pages, which have no count, first walk the order index a short way (420 rows
 * for a page of 20), then read the matches: they are asserted to read no more than that.
 * And 12,000 projects `zzbig import <i>`, older still: a match set above the count's 10,000, all at the far end.
 */
const t = useTestApp({ reset: 'once' });
const BULK = 1_000_000;
const SLICE = 100_000;
const FAR = 1_000;
const BIG = 12_000;
/** Rows a keyset page of 20 walks before it counts its matches: 20 per row it needs (match-first.ts). */
const PROBE = 420;
/** Rows a page walks when more than 10,000 match, before it reads them all: what a bounded count reads. */
const WALK = 10_000;

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** Over a plan's nodes (all loops): rows thrown away by filters and index rechecks, and rows of `projects` read. */
function planRows(node: PlanNode): { removed: number; read: number } {
  const loops = Number(node['Actual Loops'] ?? 0);
  const removed =
    (Number(node['Rows Removed by Filter'] ?? 0) + Number(node['Rows Removed by Index Recheck'] ?? 0)) * loops;
  const read = node['Relation Name'] === 'projects' ? Number(node['Actual Rows'] ?? 0) * loops + removed : 0;
  return (node.Plans ?? [])
    .map(planRows)
    .reduce((a, b) => ({ removed: a.removed + b.removed, read: a.read + b.read }), {
      removed,
      read,
    });
}

/** The request's page statement (the one ordering projects), run again under EXPLAIN ANALYZE. */
async function pagePlanOf(
  path: string,
): Promise<{ body: { id: number }[]; total: string | undefined; removed: number; read: number }> {
  const { result: res, sql } = await t.captureQueries(() => api(t, ROOT_TOKEN).get(path).expect(200));
  return { body: res.body, total: res.headers['x-total'], ...(await planOf(sql)) };
}

async function planOf(sql: string[]): Promise<{ removed: number; read: number }> {
  const page = sql.filter((s) => /from projects p/.test(s) && /order by p\./.test(s));
  expect(page).toHaveLength(1);
  const rows = (await t.orm.em.getConnection().execute(`explain (analyze, format json) ${page[0]}`)) as {
    'QUERY PLAN': { Plan: PlanNode }[];
  }[];
  return planRows(rows[0]['QUERY PLAN'][0].Plan);
}

interface ProjectConnection {
  nodes: { databaseId: number }[];
  pageInfo: { endCursor: string; hasNextPage: boolean };
}

/** A GraphQL `projects` connection page, and the plan of its page statement. */
async function connectionPlanOf(args: string): Promise<{ page: ProjectConnection; removed: number; read: number }> {
  const q = `{ projects(${args}) { nodes { databaseId } pageInfo { endCursor hasNextPage } } }`;
  const { result: res, sql } = await t.captureQueries(() => api(t, ROOT_TOKEN).graphql(q).expect(200));
  expect(res.body.errors).toBeUndefined();
  return { page: res.body.data.projects, ...(await planOf(sql)) };
}

/** The far projects' ids in an order (SQL, as the list must give them). */
async function farIds(order: string, name = 'zzfar archive'): Promise<number[]> {
  // the far projects share one name; the big set's names are `zzbig import <i>`
  const row = await queryOne<{ ids: number[] }>(
    t,
    `select array_agg(id order by ${order}) as ids from projects where name like ?`,
    [name],
  );
  return row!.ids.map(Number);
}

beforeAll(async () => {
  const group = await createGroup(t, { path: 'bulk', visibility: 'public' });
  const conn = t.orm.em.getConnection();
  // Loaded as a restore loads a table: its secondary indexes (as the migrations declare them) are
  // created once the rows are in, instead of being updated row by row.
  const indexes = (await conn.execute(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
      where i.indrelid = 'projects'::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
  )) as { name: string; def: string }[];
  await conn.execute(`drop index ${indexes.map((i) => i.name).join(', ')}`);
  try {
    // In slices of 100,000 rows, each its own short transaction: an open transaction holds back the
    // server's snapshot horizon, which the system hooks outbox waits on (another worker's hook tests).
    for (let from = 1; from <= BULK; from += SLICE)
      await conn.execute(
        `insert into projects (name, path, namespace_id, visibility_level, created_at, updated_at, last_activity_at)
         select 'b' || i, 'b' || i, ?, 20, ts, ts, ts
           from generate_series(?::int, ?::int) i, lateral (select timestamptz '2020-01-01' - i * interval '1 second' as ts) x`,
        [group.id, from, Math.min(from + SLICE - 1, BULK)],
      );
    await conn.execute(
      `insert into namespaces (name, path, full_path, full_name, kind, visibility_level)
       select 'far-' || i, 'far-' || i, 'far-' || i, 'far-' || i, 'group', 20 from generate_series(1, ${FAR}) i`,
    );
    await conn.execute(`update namespaces set traversal_ids = array[id] where path like 'far-%'`);
    await conn.execute(
      `insert into projects (name, path, namespace_id, visibility_level, description, created_at, updated_at, last_activity_at)
       select 'zzfar archive', 'zzfar-archive', n.id, 20, 'zzfar archive', ts, ts, ts
         from namespaces n, lateral (select timestamptz '2000-01-01' - n.id * interval '1 second' as ts) x
        where n.path like 'far-%'`,
    );
    await conn.execute(
      `insert into projects (name, path, namespace_id, visibility_level, created_at, updated_at, last_activity_at)
       select 'zzbig import ' || i, 'zzbig-import-' || i, ?, 20, ts, ts, ts
         from generate_series(1, ${BIG}) i, lateral (select timestamptz '1990-01-01' - i * interval '1 second' as ts) x`,
      [group.id],
    );
  } finally {
    // Also after a failed load: the worker's next test files use this database. One index per
    // transaction, each built by one process (no parallel workers), so that the other jest worker's
    // tests keep their share of the machine.
    for (const index of indexes) await conn.execute(`set local max_parallel_maintenance_workers = 0; ${index.def}`);
  }
  await conn.execute(
    `insert into project_custom_attributes (project_id, key, value)
     select id, 'zzfar', 'archive' from projects where name = 'zzfar archive'`,
  );
  await conn.execute('analyze projects, namespaces, project_custom_attributes');
}, 300_000);

describe('GET /projects with every match at the far end of a million rows', () => {
  // The next test file's reset would delete a million rows one by one: empty the tables at once.
  afterAll(() => t.orm.em.getConnection().execute('truncate projects, project_custom_attributes cascade'));

  it('search: the oldest matches, newest first, without walking the created_at index', async () => {
    const { body, total, removed, read } = await pagePlanOf('/api/v4/projects?search=zzfar&per_page=20');
    expect(body.map((p) => p.id)).toEqual((await farIds('created_at desc, id desc')).slice(0, 20));
    expect(total).toBe(String(FAR));
    // the matches once (count and sort), then the page by id (per_page + 1 rows: the last says a next page exists)
    expect([removed, read]).toEqual([0, FAR + 21]);
  });

  it('search ordered by name: the last names first page, without walking the name index', async () => {
    const { body, total, removed, read } = await pagePlanOf(
      '/api/v4/projects?search=zzfar&order_by=name&sort=asc&per_page=20&page=3',
    );
    expect(body.map((p) => p.id)).toEqual((await farIds('name, id')).slice(40, 60));
    expect(total).toBe(String(FAR));
    expect([removed, read]).toEqual([0, FAR + 21]);
  });

  it('custom_attributes: the same rows the same way', async () => {
    const { body, total, removed } = await pagePlanOf('/api/v4/projects?custom_attributes[zzfar]=archive&per_page=20');
    expect(body.map((p) => p.id)).toEqual((await farIds('created_at desc, id desc')).slice(0, 20));
    expect(total).toBe(String(FAR));
    expect(removed).toBeLessThanOrEqual(FAR);
  });

  it('keyset by id: the highest ids last, read through the matches after a short walk', async () => {
    const { body, removed, read } = await pagePlanOf(
      '/api/v4/projects?search=zzfar&pagination=keyset&order_by=id&sort=asc&per_page=20',
    );
    expect(body.map((p) => p.id)).toEqual((await farIds('id')).slice(0, 20));
    // the walk's 420 rows (none matches), then the matches, then the page by id
    expect(removed).toBeLessThanOrEqual(PROBE + FAR);
    expect(read).toBeLessThanOrEqual(PROBE + FAR + 21);
  });

  it('GraphQL connection pages, first and after: the oldest matches, newest first, the same way', async () => {
    const ids = await farIds('created_at desc, id desc');
    const first = await connectionPlanOf('search: "zzfar", first: 20');
    expect(first.page.nodes.map((p) => p.databaseId)).toEqual(ids.slice(0, 20));
    expect(first.page.pageInfo.hasNextPage).toBe(true);
    expect(first.removed).toBeLessThanOrEqual(PROBE + FAR);
    expect(first.read).toBeLessThanOrEqual(PROBE + FAR + 21);
    const next = await connectionPlanOf(`search: "zzfar", first: 20, after: "${first.page.pageInfo.endCursor}"`);
    expect(next.page.nodes.map((p) => p.databaseId)).toEqual(ids.slice(20, 40));
    expect(next.read).toBeLessThanOrEqual(PROBE + FAR + 21);
  });

  it('more than 10,000 matches, all at the far end: no total, the page from the matches once the walk falls short', async () => {
    const { body, total, removed, read } = await pagePlanOf('/api/v4/projects?search=zzbig&per_page=20');
    expect(body.map((p) => p.id)).toEqual((await farIds('created_at desc, id desc', 'zzbig import %')).slice(0, 20));
    expect(total).toBeUndefined();
    // the count's 10,001 matches, the walk's 10,000 rows, then all 12,000 matches sorted: not the million
    expect(removed).toBeLessThanOrEqual(WALK + BIG);
    expect(read).toBeLessThanOrEqual(COUNT_LIMIT + 1 + WALK + BIG + 21);
  });

  it('keyset, more than 10,000 matches at the far end: short walk, count, walk, then every match', async () => {
    const { body, removed, read } = await pagePlanOf(
      '/api/v4/projects?search=zzbig&order_by=id&sort=asc&pagination=keyset&per_page=20',
    );
    expect(body.map((p) => p.id)).toEqual((await farIds('id', 'zzbig import %')).slice(0, 20));
    expect(removed).toBeLessThanOrEqual(PROBE + WALK + BIG);
    expect(read).toBeLessThanOrEqual(PROBE + COUNT_LIMIT + 1 + WALK + BIG + 21);
  });

  it('a term matching more than 10,000 projects pages along the order (no total), as an unfiltered list does', async () => {
    const { body, total, removed, read } = await pagePlanOf('/api/v4/projects?search=b12&per_page=20');
    const row = await queryOne<{ ids: number[] }>(
      t,
      `select array_agg(id order by created_at desc, id desc) as ids
         from (select id, created_at from projects where name like '%b12%' order by created_at desc, id desc limit 20) x`,
    );
    expect(body.map((p) => p.id)).toEqual(row!.ids.map(Number));
    expect(total).toBeUndefined();
    // 11,111 matches: the count stops at 10,001 of them, and the first 20 are among the 1,210 newest rows
    expect(removed).toBeLessThan(2_000);
    expect(read).toBeLessThan(10_001 + 1_210 + 20 + 100);
  });
});

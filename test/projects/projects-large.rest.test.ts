import { addBulkProjects, linkOf } from '../support/bulk';
import { createGroup, createUser, type TestUser } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * GitLab's rule for big lists (REST API docs, "Pagination"; lib/gitlab/pagination/
 * offset_pagination.rb): counts stop at 10,001 rows; above 10,000 there is no X-Total, X-Total-Pages
 * nor rel="last", while X-Page, X-Per-Page, X-Next-Page, X-Prev-Page and next/prev/first stay.
 * Data: 10,000 public, 1 internal and 49 private projects, inserted with generate_series. So anonymous
 * callers see exactly 10,000, a signed-in non-member 10,001, an administrator 10,050.
 */
const t = useTestApp({ reset: 'once' });
let user: TestUser;
const BASE = `${EXTERNAL_URL}/api/v4/projects`;
const ids = (body: { id: number }[]) => body.map((p) => p.id);
const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]);

beforeAll(async () => {
  const group = await createGroup(t, { path: 'bulk', visibility: 'public' });
  await addBulkProjects(t, group.id, 1, 10_000, 'public');
  await addBulkProjects(t, group.id, 10_001, 10_001, 'internal');
  await addBulkProjects(t, group.id, 10_002, 10_050, 'private');
  user = await createUser(t);
}, 60000);

describe('offset pages above 10,000 rows', () => {
  it('leave out X-Total, X-Total-Pages and rel="last", keep the rest, and the next page works', async () => {
    const first = await api(t, ROOT_TOKEN).get('/api/v4/projects?per_page=100&order_by=id&sort=asc').expect(200);
    expect(first.headers['x-total']).toBeUndefined();
    expect(first.headers['x-total-pages']).toBeUndefined();
    expect(first.headers).toMatchObject({ 'x-page': '1', 'x-per-page': '100', 'x-next-page': '2', 'x-prev-page': '' });
    expect(first.headers.link).toBe(
      `<${BASE}?per_page=100&order_by=id&sort=asc&page=2>; rel="next", <${BASE}?per_page=100&order_by=id&sort=asc&page=1>; rel="first"`,
    );
    expect(first.body).toHaveLength(100);
    expect(ascending(ids(first.body))).toBe(true);

    const second = await api(t, ROOT_TOKEN).get(linkOf(first.headers.link, 'next')!).expect(200);
    expect(second.headers['x-total']).toBeUndefined();
    expect(second.headers['x-total-pages']).toBeUndefined();
    expect(second.headers).toMatchObject({
      'x-page': '2',
      'x-per-page': '100',
      'x-next-page': '3',
      'x-prev-page': '1',
    });
    expect(second.headers.link).toBe(
      `<${BASE}?per_page=100&order_by=id&sort=asc&page=1>; rel="prev", <${BASE}?per_page=100&order_by=id&sort=asc&page=3>; rel="next", ` +
        `<${BASE}?per_page=100&order_by=id&sort=asc&page=1>; rel="first"`,
    );
    expect(second.body).toHaveLength(100);
    expect(ids(second.body)[0]).toBeGreaterThan(ids(first.body)[99]);
  });

  it('know the end from one row more than per_page: last page without next, a page past the end without prev', async () => {
    const get = (page: number) => api(t, ROOT_TOKEN).get(`/api/v4/projects?per_page=100&page=${page}`).expect(200);
    const full = await get(100);
    expect(full.body).toHaveLength(100);
    expect(full.headers).toMatchObject({ 'x-page': '100', 'x-next-page': '101', 'x-prev-page': '99' });
    const last = await get(101);
    expect(last.body).toHaveLength(50);
    expect(last.headers['x-total']).toBeUndefined();
    expect(last.headers).toMatchObject({
      'x-page': '101',
      'x-per-page': '100',
      'x-next-page': '',
      'x-prev-page': '100',
    });
    expect(last.headers.link).toBe(
      `<${BASE}?per_page=100&page=100>; rel="prev", <${BASE}?per_page=100&page=1>; rel="first"`,
    );
    const past = await get(102);
    expect(past.body).toEqual([]);
    expect(past.headers).toMatchObject({ 'x-page': '102', 'x-next-page': '', 'x-prev-page': '' });
    expect(past.headers.link).toBe(`<${BASE}?per_page=100&page=1>; rel="first"`);
  });

  it('start at 10,001 rows: a signed-in non-member sees 10,001 projects and gets no totals', async () => {
    const res = await api(t, user.token).get('/api/v4/projects?per_page=100&page=101').expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.headers['x-total']).toBeUndefined();
    expect(res.headers['x-total-pages']).toBeUndefined();
    expect(res.headers).toMatchObject({ 'x-next-page': '', 'x-prev-page': '100' });
    expect(res.headers.link).not.toContain('rel="last"');
  });

  it('count at most 10,001 rows, in the same round trip as the page', async () => {
    const { result, sql } = await t.captureQueries(() => api(t, ROOT_TOKEN).get('/api/v4/projects').expect(200));
    expect(result.body).toHaveLength(20);
    const listed = sql.filter((s) => /from projects p/.test(s));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatch(
      /^select count\(\*\) as n from \(select 1 from projects p where .* limit 10001\) counted$/s,
    );
    expect(listed[1]).toMatch(/limit 21 offset 0$/);
  });
});

describe('exactly 10,000 rows', () => {
  it('keep every header, the last page too', async () => {
    const last = await api(t).get('/api/v4/projects?per_page=100&page=100').expect(200);
    expect(last.body).toHaveLength(100);
    expect(last.headers).toMatchObject({
      'x-total': '10000',
      'x-total-pages': '100',
      'x-page': '100',
      'x-per-page': '100',
      'x-next-page': '',
      'x-prev-page': '99',
    });
    expect(last.headers.link).toBe(
      `<${BASE}?per_page=100&page=99>; rel="prev", <${BASE}?per_page=100&page=1>; rel="first", <${BASE}?per_page=100&page=100>; rel="last"`,
    );
    const filtered = await api(t, ROOT_TOKEN).get('/api/v4/projects?visibility=public').expect(200);
    expect(filtered.headers).toMatchObject({ 'x-total': '10000', 'x-total-pages': '500', 'x-next-page': '2' });
  });
});

describe('GraphQL connections follow the same rule', () => {
  const PAGE = 'count pageInfo { hasNextPage hasPreviousPage } nodes { id: databaseId }';

  it('count is null above 10,000 rows; pageInfo says whether a page follows or precedes', async () => {
    const res = await api(t, ROOT_TOKEN)
      .graphql(
        `{
      first: projects(first: 100, sort: "id_asc") { ${PAGE} }
      last: projects(last: 50, sort: "id_asc") { ${PAGE} }
      exact: projects(visibility: PUBLIC, first: 100) { ${PAGE} }
      exactLast: projects(visibility: PUBLIC, last: 100) { ${PAGE} }
    }`,
      )
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    const { first, last, exact, exactLast } = res.body.data;
    const shape = (c: { count: number | null; pageInfo: object; nodes: unknown[] }) => ({
      count: c.count,
      pageInfo: c.pageInfo,
      nodes: c.nodes.length,
    });
    expect(shape(first)).toEqual({
      count: null,
      pageInfo: { hasNextPage: true, hasPreviousPage: false },
      nodes: 100,
    });
    expect(shape(last)).toEqual({
      count: null,
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      nodes: 50,
    });
    // The 50 last projects by id: the internal one and the 49 private ones (10,001 to 10,050).
    expect(last.nodes.map((n: { id: number }) => n.id)).toEqual(
      [...Array(50).keys()].map((i) => first.nodes[0].id + 10_000 + i),
    );
    expect(shape(exact)).toEqual({
      count: 10000,
      pageInfo: { hasNextPage: true, hasPreviousPage: false },
      nodes: 100,
    });
    expect(shape(exactLast)).toEqual({
      count: 10000,
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      nodes: 100,
    });
  });
});

describe('keyset pages of a big list (GET /projects?pagination=keyset&order_by=id)', () => {
  it('walk by id_after (sort=asc) and id_before (sort=desc) links without totals', async () => {
    for (const sort of ['asc', 'desc'] as const) {
      let url: string | undefined = `/api/v4/projects?pagination=keyset&order_by=id&sort=${sort}&per_page=100`;
      const seen: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await api(t, ROOT_TOKEN).get(url!).expect(200);
        expect(res.headers['x-total']).toBeUndefined();
        expect(res.headers['x-next-page']).toBeUndefined();
        expect(res.body).toHaveLength(100);
        seen.push(...ids(res.body));
        const last = seen[seen.length - 1];
        const param = sort === 'asc' ? 'id_after' : 'id_before';
        expect(res.headers.link).toBe(
          `<${BASE}?pagination=keyset&order_by=id&sort=${sort}&per_page=100&${param}=${last}>; rel="next"`,
        );
        url = linkOf(res.headers.link, 'next');
      }
      expect(new Set(seen).size).toBe(300);
      expect(ascending(sort === 'asc' ? seen : [...seen].reverse())).toBe(true);
    }
  });
});

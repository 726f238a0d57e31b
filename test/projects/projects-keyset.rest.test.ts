import { linkOf } from '../support/bulk';
import { createGroup, createProject, type TestGroup, type TestProject } from '../support/factories';
import { api, EXTERNAL_URL, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Keyset pagination of GET /projects as GitLab has it (Gitlab::Pagination::Keyset,
 * lib/api/helpers/pagination_strategies.rb): order_by=id only, either direction (default desc),
 * rel="next" sets id_after (asc) or id_before (desc) on the caller's query; no totals; another order
 * is 405 "Keyset pagination is not yet available for this type of request".
 */
const t = useTestApp();
const UNAVAILABLE = { error: 'Keyset pagination is not yet available for this type of request' };
const BASE = `${EXTERNAL_URL}/api/v4/projects`;
const ids = (body: { id: number }[]) => body.map((p) => p.id);

let group: TestGroup;
let projects: TestProject[];
beforeEach(async () => {
  group = await createGroup(t, { path: 'ks', visibility: 'public' });
  projects = [];
  for (let i = 0; i < 5; i += 1) projects.push(await createProject(t, { namespace: group, visibility: 'public' }));
  await createProject(t, { namespace: group, visibility: 'private' });
});

async function walk(url: string, token?: string): Promise<{ pages: number[][]; links: (string | undefined)[] }> {
  const pages: number[][] = [];
  const links: (string | undefined)[] = [];
  let next: string | undefined = url;
  while (next) {
    const res = await api(t, token).get(next).expect(200);
    expect(res.headers['x-total']).toBeUndefined();
    expect(res.headers['x-total-pages']).toBeUndefined();
    expect(res.headers['x-page']).toBeUndefined();
    pages.push(ids(res.body));
    links.push(res.headers.link);
    next = linkOf(res.headers.link, 'next');
  }
  return { pages, links };
}

describe('GET /projects?pagination=keyset', () => {
  it('order_by=id&sort=asc follows id_after links to the end (the last page has no link)', async () => {
    const { pages, links } = await walk('/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=2');
    const [a, b, c, d, e] = projects.map((p) => p.id);
    expect(pages).toEqual([[a, b], [c, d], [e]]);
    expect(links).toEqual([
      `<${BASE}?pagination=keyset&order_by=id&sort=asc&per_page=2&id_after=${b}>; rel="next"`,
      `<${BASE}?pagination=keyset&order_by=id&sort=asc&per_page=2&id_after=${d}>; rel="next"`,
      undefined,
    ]);
  });

  it('sorts descending by default and follows id_before; private projects stay hidden from anonymous callers', async () => {
    const { pages, links } = await walk('/api/v4/projects?pagination=keyset&order_by=id&per_page=3');
    const [a, b, c, d, e] = projects.map((p) => p.id);
    expect(pages).toEqual([
      [e, d, c],
      [b, a],
    ]);
    expect(links[0]).toBe(`<${BASE}?pagination=keyset&order_by=id&per_page=3&id_before=${c}>; rel="next"`);
    const admin = await walk('/api/v4/projects?pagination=keyset&order_by=id&per_page=100', ROOT_TOKEN);
    expect(admin.pages.flat()).toHaveLength(6);
  });

  it('answers 405 for any other order, as GitLab (projects default to created_at)', async () => {
    for (const q of [
      'pagination=keyset',
      'pagination=keyset&order_by=name',
      'pagination=keyset&order_by=created_at&sort=asc',
    ]) {
      const res = await api(t).get(`/api/v4/projects?${q}`);
      expect([q, res.status, res.body]).toEqual([q, 405, UNAVAILABLE]);
    }
    const groups = await api(t).get('/api/v4/groups?pagination=keyset&order_by=path');
    expect([groups.status, groups.body]).toEqual([405, UNAVAILABLE]);
  });

  it('id_after and id_before are filters in offset mode too (exact totals)', async () => {
    const [a, b, c, d] = projects.map((p) => p.id);
    const res = await api(t).get(`/api/v4/projects?id_after=${a}&id_before=${d}&order_by=id&sort=asc`).expect(200);
    expect(ids(res.body)).toEqual([b, c]);
    expect(res.headers).toMatchObject({ 'x-total': '2', 'x-total-pages': '1', 'x-page': '1' });
  });

  it('is not offered by GET /groups/:id/projects (GitLab neither): the parameter is ignored', async () => {
    const res = await api(t).get(`/api/v4/groups/${group.id}/projects?pagination=keyset&order_by=name`).expect(200);
    expect(res.headers['x-total']).toBe('5');
  });
});

describe('GraphQL projects: cursor pages by id', () => {
  it('pages by endCursor to the end of the list, in id order', async () => {
    const q =
      'query($c: String) { projects(sort: "id_asc", first: 3, after: $c) { nodes { id: databaseId } count pageInfo { hasNextPage endCursor } } }';
    const first = (await api(t).graphql(q).expect(200)).body.data.projects;
    expect(first).toMatchObject({ count: projects.length, pageInfo: { hasNextPage: true } });
    const second = (await api(t).graphql(q, { c: first.pageInfo.endCursor }).expect(200)).body.data.projects;
    expect([...ids(first.nodes), ...ids(second.nodes)]).toEqual(projects.map((p) => p.id));
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

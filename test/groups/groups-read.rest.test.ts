import {
  addGroupMember,
  createGroup,
  createProject,
  createUser,
  setCustomAttribute,
  shareProject,
} from '../support/factories';
import {
  GROUP_DETAIL_KEYS,
  GROUP_KEYS,
  GROUP_SEARCH_KEYS,
  PROJECT_KEYS,
  PROJECT_SIMPLE_KEYS,
  STATISTICS_KEYS,
  keys,
} from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const names = (body: { name: string }[]) => body.map((g) => g.name);

describe('GET /groups', () => {
  it('returns the group entity with exactly the reference keys', async () => {
    const g = await createGroup(t, { path: 'alpha', name: 'Alpha', visibility: 'public', description: 'd' });
    const res = await api(t).get('/api/v4/groups');
    expect(res.status).toBe(200);
    expect(keys(res.body[0])).toEqual(GROUP_KEYS);
    expect(res.body[0]).toEqual({
      id: g.id,
      name: 'Alpha',
      path: 'alpha',
      description: 'd',
      visibility: 'public',
      lfs_enabled: true,
      avatar_url: null,
      web_url: 'http://gitlab.test/groups/alpha',
      request_access_enabled: false,
      full_name: 'Alpha',
      full_path: 'alpha',
      parent_id: null,
    });
  });

  it('paginates with all GitLab headers and a Link header that keeps the other parameters', async () => {
    for (let i = 0; i < 5; i += 1) await createGroup(t, { name: `G${i}`, path: `g${i}`, visibility: 'public' });
    const res = await api(t).get('/api/v4/groups?per_page=2&page=2&sort=asc');
    expect(names(res.body)).toEqual(['G2', 'G3']);
    expect(res.headers).toMatchObject({
      'x-total': '5',
      'x-total-pages': '3',
      'x-per-page': '2',
      'x-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
    });
    const link = res.headers.link as string;
    expect(link).toContain('rel="prev"');
    expect(link).toContain('rel="next"');
    // Built from EXTERNAL_URL (the test app's http://gitlab.test), never from the Host header.
    expect(link).toContain('<http://gitlab.test/api/v4/groups?per_page=2&page=3&sort=asc>; rel="next"');
    expect(link).toContain('page=1&sort=asc>; rel="first"');
    expect(link).toContain('page=3&sort=asc>; rel="last"');
  });

  it('clamps per_page at 100, treats page < 1 as 1 and answers [] past the end', async () => {
    await createGroup(t, { visibility: 'public' });
    const big = await api(t).get('/api/v4/groups?per_page=500&page=0');
    expect(big.headers['x-per-page']).toBe('100');
    expect(big.headers['x-page']).toBe('1');
    const past = await api(t).get('/api/v4/groups?page=9');
    expect(past.body).toEqual([]);
    expect(past.headers['x-page']).toBe('9');
    expect(past.headers['x-next-page']).toBe('');
    expect(past.headers['x-total-pages']).toBe('1');
  });

  it('orders by name (default) or path, asc (default) or desc, with id as tie-breaker', async () => {
    await createGroup(t, { name: 'b', path: 'zz', visibility: 'public' });
    await createGroup(t, { name: 'a', path: 'yy', visibility: 'public' });
    await createGroup(t, { name: 'c', path: 'xx', visibility: 'public' });
    expect(names((await api(t).get('/api/v4/groups')).body)).toEqual(['a', 'b', 'c']);
    expect(names((await api(t).get('/api/v4/groups?sort=desc')).body)).toEqual(['c', 'b', 'a']);
    expect(names((await api(t).get('/api/v4/groups?order_by=path')).body)).toEqual(['c', 'a', 'b']);
  });

  it('rejects bad order_by, sort, page and skip_groups with GitLab messages', async () => {
    expect((await api(t).get('/api/v4/groups?order_by=size')).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await api(t).get('/api/v4/groups?sort=up')).body).toEqual({ error: 'sort does not have a valid value' });
    expect((await api(t).get('/api/v4/groups?page=abc')).body).toEqual({ error: 'page is invalid' });
    expect((await api(t).get('/api/v4/groups?per_page=1.5')).body).toEqual({ error: 'per_page is invalid' });
    const skip = await api(t).get('/api/v4/groups?skip_groups[]=x');
    expect(skip.status).toBe(400);
    expect(skip.body).toEqual({ error: 'skip_groups is invalid' });
  });

  it('searches name or path case-insensitively and answers the reduced record (spec 2.3)', async () => {
    const hit = await createGroup(t, { name: 'Frontend Team', path: 'fe', visibility: 'public', description: 'x' });
    await createGroup(t, { name: 'Backend', path: 'backend-frontline', visibility: 'public' });
    await createGroup(t, { name: 'Other', path: 'other', visibility: 'public' });
    const res = await api(t).get('/api/v4/groups?search=FRONT');
    expect(names(res.body)).toEqual(['Backend', 'Frontend Team']);
    expect(keys(res.body[1])).toEqual(GROUP_SEARCH_KEYS);
    expect(res.body[1]).toEqual({ id: hit.id, name: 'Frontend Team', path: 'fe', description: 'x' });
  });

  it('treats % _ and quotes in search as literal text', async () => {
    await createGroup(t, { name: 'abc', path: 'abc', visibility: 'public' });
    await createGroup(t, { name: '100% done', path: 'done', visibility: 'public' });
    expect(names((await api(t).get('/api/v4/groups?search=%25')).body)).toEqual([]);
    expect(names((await api(t).get(`/api/v4/groups?search=${encodeURIComponent('0% d')}`)).body)).toEqual([
      '100% done',
    ]);
    expect((await api(t).get(`/api/v4/groups?search=${encodeURIComponent('a\'b"c_')}`)).body).toEqual([]);
  });

  it('adds statistics only for administrators who ask; others get no key and no error', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    await createProject(t, { namespace: g, sizes: [10, 4, 3, 2] });
    await createProject(t, { namespace: g, sizes: [5, 1, 1, 1] });
    const admin = await api(t, ROOT_TOKEN).get('/api/v4/groups?statistics=true');
    expect(keys(admin.body[0].statistics)).toEqual(STATISTICS_KEYS);
    expect(admin.body[0].statistics).toEqual({
      storage_size: 15,
      repository_size: 5,
      lfs_objects_size: 4,
      job_artifacts_size: 3,
    });
    const plain = await api(t, ROOT_TOKEN).get('/api/v4/groups');
    expect(plain.body[0]).not.toHaveProperty('statistics');
    const user = await createUser(t);
    const other = await api(t, user.token).get('/api/v4/groups?statistics=true&all_available=true');
    expect(other.status).toBe(200);
    expect(other.body[0]).not.toHaveProperty('statistics');
  });

  it('owned=true lists only groups where the caller is Owner', async () => {
    const u = await createUser(t);
    const owned = await createGroup(t, { name: 'Owned' });
    const dev = await createGroup(t, { name: 'Dev' });
    await addGroupMember(t, owned, u, 50);
    await addGroupMember(t, dev, u, 30);
    expect(names((await api(t, u.token).get('/api/v4/groups?owned=true')).body)).toEqual(['Owned']);
    expect(names((await api(t).get('/api/v4/groups?owned=true')).body)).toEqual([]);
  });

  it('filters by custom_attributes for administrators (several keys combine), ignores them for others', async () => {
    const a = await createGroup(t, { name: 'A', visibility: 'public' });
    const b = await createGroup(t, { name: 'B', visibility: 'public' });
    await setCustomAttribute(t, a, 'tier', 'gold');
    await setCustomAttribute(t, a, 'region', 'eu');
    await setCustomAttribute(t, b, 'tier', 'gold');
    expect(names((await api(t, ROOT_TOKEN).get('/api/v4/groups?custom_attributes[tier]=gold')).body)).toEqual([
      'A',
      'B',
    ]);
    expect(
      names(
        (await api(t, ROOT_TOKEN).get('/api/v4/groups?custom_attributes[tier]=gold&custom_attributes[region]=eu')).body,
      ),
    ).toEqual(['A']);
    expect(names((await api(t).get('/api/v4/groups?custom_attributes[region]=eu')).body)).toEqual(['A', 'B']);
  });

  it('keyset pagination follows rel="next" cursors without X-Total', async () => {
    for (let i = 0; i < 5; i += 1) await createGroup(t, { name: `K${i}`, path: `k${i}`, visibility: 'public' });
    const seen: string[] = [];
    let url: string | undefined = '/api/v4/groups?pagination=keyset&order_by=name&per_page=2';
    while (url) {
      const res = await api(t).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['x-total']).toBeUndefined();
      seen.push(...names(res.body));
      const next = /<([^>]+)>; rel="next"/.exec((res.headers.link as string | undefined) ?? '');
      url = next ? new URL(next[1]).pathname + new URL(next[1]).search : undefined;
    }
    expect(seen).toEqual(['K0', 'K1', 'K2', 'K3', 'K4']);
    expect((await api(t).get('/api/v4/groups?pagination=keyset&cursor=garbage')).body).toEqual({
      error: 'cursor is invalid',
    });
  });

  it('issues the same number of SQL statements for 1 and for 20 rows (no N+1)', async () => {
    const u = await createUser(t);
    const make = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const g = await createGroup(t, { visibility: 'public' });
        await addGroupMember(t, g, u, 30);
      }
    };
    await make(1);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/groups?statistics=true').expect(200));
    await make(19);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get('/api/v4/groups?statistics=true').expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

describe('GET /groups/:id/subgroups', () => {
  it('lists direct children only, with the list parameters, and the same SQL count for 1 and 20 rows', async () => {
    const parent = await createGroup(t, { visibility: 'public' });
    const child = await createGroup(t, { parent, visibility: 'public', name: 'zz' });
    await createGroup(t, { parent: child, visibility: 'public' }); // grandchild: not listed
    const one = await t.countQueries(() =>
      api(t, ROOT_TOKEN).get(`/api/v4/groups/${parent.id}/subgroups?statistics=true`).expect(200),
    );
    expect(one.result.body.map((g: { id: number }) => g.id)).toEqual([child.id]);
    expect(keys(one.result.body[0])).toEqual([...GROUP_KEYS, 'statistics'].sort());
    for (let i = 0; i < 19; i += 1) await createGroup(t, { parent, visibility: 'public', name: `c${i}` });
    const twenty = await t.countQueries(() =>
      api(t, ROOT_TOKEN).get(`/api/v4/groups/${parent.id}/subgroups?statistics=true`).expect(200),
    );
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
    expect(names((await api(t).get(`/api/v4/groups/${parent.id}/subgroups?search=zz`)).body)).toEqual(['zz']);
    expect((await api(t).get('/api/v4/groups/424242/subgroups')).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id', () => {
  it('finds a group by id, by full path and by URL-encoded nested path, with projects and shared_projects', async () => {
    const parent = await createGroup(t, { path: 'parent', visibility: 'public' });
    const child = await createGroup(t, { path: 'child', visibility: 'public', parent });
    const own = await createProject(t, { namespace: child, visibility: 'public' });
    const elsewhere = await createGroup(t, { visibility: 'public' });
    const shared = await createProject(t, { namespace: elsewhere, visibility: 'public' });
    await shareProject(t, shared, child, 30);
    const byPath = await api(t).get('/api/v4/groups/parent%2Fchild');
    expect(byPath.status).toBe(200);
    expect(keys(byPath.body)).toEqual(GROUP_DETAIL_KEYS);
    expect(byPath.body.id).toBe(child.id);
    expect(byPath.body.full_path).toBe('parent/child');
    expect(byPath.body.parent_id).toBe(parent.id);
    expect(byPath.body.projects.map((p: { id: number }) => p.id)).toEqual([own.id]);
    expect(keys(byPath.body.projects[0])).toEqual(PROJECT_KEYS);
    expect(byPath.body.shared_projects.map((p: { id: number }) => p.id)).toEqual([shared.id]);
    expect((await api(t).get(`/api/v4/groups/${child.id}`)).body.id).toBe(child.id);
    expect((await api(t).get('/api/v4/groups/PARENT')).body.id).toBe(parent.id);
  });

  it('filters embedded projects to what the caller may see', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const pub = await createProject(t, { namespace: g, visibility: 'public' });
    const internal = await createProject(t, { namespace: g, visibility: 'internal' });
    await createProject(t, { namespace: g, visibility: 'private' });
    const u = await createUser(t);
    const ids = (r: { body: { projects: { id: number }[] } }) => r.body.projects.map((p) => p.id);
    expect(ids(await api(t).get(`/api/v4/groups/${g.id}`))).toEqual([pub.id]);
    expect(ids(await api(t, u.token).get(`/api/v4/groups/${g.id}`))).toEqual([pub.id, internal.id]);
    expect(ids(await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}`))).toHaveLength(3);
  });

  it('answers 404 Group Not Found for unknown ids, ids beyond the integer range and unknown paths', async () => {
    for (const id of ['424242', '99999999999999999999', 'no%2Fsuch']) {
      const res = await api(t, ROOT_TOKEN).get(`/api/v4/groups/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    }
  });
});

describe('GET /groups/:id/projects', () => {
  it('hides archived projects by default, shows only them with archived=true, includes shared projects', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const live = await createProject(t, { namespace: g, visibility: 'public', createdAt: new Date('2020-01-01') });
    const old = await createProject(t, { namespace: g, visibility: 'public', archived: true });
    const other = await createGroup(t, { visibility: 'public' });
    const shared = await createProject(t, {
      namespace: other,
      visibility: 'public',
      createdAt: new Date('2021-01-01'),
    });
    await shareProject(t, shared, g, 20);
    const res = await api(t).get(`/api/v4/groups/${g.id}/projects`);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([shared.id, live.id]); // created_at desc
    expect(keys(res.body[0])).toEqual(PROJECT_KEYS);
    expect(
      (await api(t).get(`/api/v4/groups/${g.id}/projects?archived=true`)).body.map((p: { id: number }) => p.id),
    ).toEqual([old.id]);
  });

  it('supports simple, visibility, search, order_by and sort', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    await createProject(t, { namespace: g, name: 'Beta', path: 'beta', visibility: 'public' });
    await createProject(t, {
      namespace: g,
      name: 'Alpha',
      path: 'alpha',
      visibility: 'internal',
      description: 'the api',
    });
    const simple = await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects?simple=true`);
    expect(keys(simple.body[0])).toEqual(PROJECT_SIMPLE_KEYS);
    const byName = await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects?order_by=name&sort=asc`);
    expect(names(byName.body)).toEqual(['Alpha', 'Beta']);
    expect(names((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects?visibility=internal`)).body)).toEqual([
      'Alpha',
    ]);
    expect(names((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects?search=API`)).body)).toEqual(['Alpha']);
    expect((await api(t).get(`/api/v4/groups/${g.id}/projects?order_by=stars`)).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await api(t).get(`/api/v4/groups/${g.id}/projects?visibility=secret`)).body).toEqual({
      error: 'visibility does not have a valid value',
    });
  });

  it('owned and starred narrow the list to the caller', async () => {
    const u = await createUser(t);
    const g = await createGroup(t, { visibility: 'public' });
    const p = await createProject(t, { namespace: g, visibility: 'public' });
    await createProject(t, { namespace: g, visibility: 'public' });
    await api(t, u.token).post(`/api/v4/projects/${p.id}/star`).expect(201);
    const starred = await api(t, u.token).get(`/api/v4/groups/${g.id}/projects?starred=true`);
    expect(starred.body.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect((await api(t, u.token).get(`/api/v4/groups/${g.id}/projects?owned=true`)).body).toEqual([]);
  });

  it('issues the same number of SQL statements for 1 and for 20 projects', async () => {
    const g = await createGroup(t, { visibility: 'public' });
    const other = await createGroup(t, { visibility: 'public' });
    await shareProject(t, await createProject(t, { namespace: g, visibility: 'public' }), other, 30);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects`).expect(200));
    for (let i = 0; i < 19; i += 1)
      await shareProject(t, await createProject(t, { namespace: g, visibility: 'public' }), other, 30);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}/projects`).expect(200));
    expect(twenty.result.body).toHaveLength(20);
    expect(twenty.count).toBe(one.count);
  });
});

import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { keys } from '../support/keys';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const PUBLIC_GROUP_DETAILS_KEYS = ['avatar_url', 'full_name', 'full_path', 'id', 'name', 'web_url'];
const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path);

async function world() {
  const ann = await createUser(t);
  const home = await createGroup(t, { path: 'home', visibility: 'public' });
  const project = await createProject(t, { namespace: home, path: 'app', visibility: 'public' });
  const zeta = await createGroup(t, { path: 'zeta' });
  const zsub = await createGroup(t, { path: 'zsub', parent: zeta });
  const mastered = await createGroup(t, { path: 'mastered' });
  const guested = await createGroup(t, { path: 'guested' });
  await createGroup(t, { path: 'elsewhere', visibility: 'public' });
  await addGroupMember(t, home, ann, 50);
  await addGroupMember(t, zeta, ann, 50);
  await addGroupMember(t, mastered, ann, 40);
  await addGroupMember(t, guested, ann, 10);
  return { ann, home, project, zeta, zsub, mastered, guested };
}

describe('GET /projects/:id/transfer_locations', () => {
  it('lists the groups where the Owner may create projects, less the project group, by path', async () => {
    const w = await world();
    const res = await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/transfer_locations`);
    expect(res.status).toBe(200);
    expect(keys(res.body[0])).toEqual(PUBLIC_GROUP_DETAILS_KEYS);
    expect(paths(res.body)).toEqual(['mastered', 'zeta', 'zeta/zsub']);
    const search = await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/transfer_locations?search=zs`);
    expect(paths(search.body)).toEqual([]); // two characters: exact match only, as the groups list
    const exact = await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/transfer_locations?search=zsub`);
    expect(paths(exact.body)).toEqual(['zeta/zsub']);
    // Administrators: every group but the project's.
    const admin = await api(t, ROOT_TOKEN).get(`/api/v4/projects/${w.project.id}/transfer_locations`);
    expect(paths(admin.body)).toEqual(['elsewhere', 'guested', 'mastered', 'zeta', 'zeta/zsub']);
  });

  it('answers 401, 404 for a project the caller may not see and 403 below Owner', async () => {
    const w = await world();
    const master = await createUser(t);
    await addProjectMember(t, w.project, master, 40);
    const hidden = await createProject(t, { namespace: w.zeta, path: 'hidden' });
    expect((await api(t).get(`/api/v4/projects/${w.project.id}/transfer_locations`)).status).toBe(401);
    const below = await api(t, master.token).get(`/api/v4/projects/${w.project.id}/transfer_locations`);
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api(t, master.token).get(`/api/v4/projects/${hidden.id}/transfer_locations`)).body).toEqual({
      message: '404 Project Not Found',
    });
  });
});

describe('GET /projects/:id/share_locations', () => {
  it("lists the caller's groups (any level) to a Master, by path; nothing to others or under share_with_group_lock", async () => {
    const w = await world();
    const res = await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/share_locations`);
    expect(res.status).toBe(200);
    expect(keys(res.body[0])).toEqual(PUBLIC_GROUP_DETAILS_KEYS);
    expect(paths(res.body)).toEqual(['guested', 'home', 'mastered', 'zeta', 'zeta/zsub']);
    expect(res.headers['x-total']).toBe('5');
    const search = await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/share_locations?search=mast`);
    expect(paths(search.body)).toEqual(['mastered']);
    const reporter = await createUser(t);
    await addProjectMember(t, w.project, reporter, 20);
    expect((await api(t, reporter.token).get(`/api/v4/projects/${w.project.id}/share_locations`)).body).toEqual([]);
    expect((await api(t).get(`/api/v4/projects/${w.project.id}/share_locations`)).body).toEqual([]);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${w.home.id}`).send({ share_with_group_lock: true }).expect(200);
    expect((await api(t, w.ann.token).get(`/api/v4/projects/${w.project.id}/share_locations`)).body).toEqual([]);
  });

  it('costs the same number of SQL statements for 1 group and for 20 (no N+1)', async () => {
    const w = await world();
    const url = `/api/v4/projects/${w.project.id}/share_locations?per_page=20&search=big`;
    const big = await createGroup(t, { path: 'big' });
    await addGroupMember(t, big, w.ann, 30);
    const one = await t.countQueries(() => api(t, w.ann.token).get(url));
    expect(one.result.body).toHaveLength(1);
    for (let i = 0; i < 20; i += 1) await createGroup(t, { path: `big-${i}`, parent: big });
    const many = await t.countQueries(() => api(t, w.ann.token).get(url));
    expect(many.result.body).toHaveLength(20);
    expect(many.count).toBe(one.count);
  });
});

describe('Project.shareTargets', () => {
  const TARGETS = (path: string, args = '') =>
    `{ project(fullPath: "${path}") { shareTargets${args} { count nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`;
  const targets = async (token: string | undefined, path: string, args = '') => {
    const res = await api(t, token).graphql(TARGETS(path, args));
    expect(res.body.errors).toBeUndefined();
    return res.body.data.project.shareTargets;
  };
  const rest = async (token: string, url: string) => {
    const res = await api(t, token).get(url).expect(200);
    return { paths: paths(res.body), total: Number(res.headers['x-total']) };
  };

  it('lists what GET /projects/:id/share_locations lists to the same caller, by path; search and paging', async () => {
    const w = await world();
    for (const [token, search] of [
      [w.ann.token, ''],
      [w.ann.token, 'mast'],
      [ROOT_TOKEN, ''],
    ]) {
      const r = await rest(token, `/api/v4/projects/${w.project.id}/share_locations?search=${search}`);
      const gql = await targets(token, 'home/app', search ? `(search: "${search}")` : '');
      expect(gql.nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual(r.paths);
      expect(gql.count).toBe(r.total);
    }
    expect((await targets(w.ann.token, 'home/app')).nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual([
      'guested',
      'home',
      'mastered',
      'zeta',
      'zeta/zsub',
    ]);
    const first = await targets(w.ann.token, 'home/app', '(first: 2)');
    expect(first).toMatchObject({ count: 5, nodes: [{ fullPath: 'guested' }, { fullPath: 'home' }] });
    const next = await targets(w.ann.token, 'home/app', `(first: 2, after: "${first.pageInfo.endCursor}")`);
    expect(next.nodes).toEqual([{ fullPath: 'mastered' }, { fullPath: 'zeta' }]);
    expect(
      (await rest(w.ann.token, `/api/v4/projects/${w.project.id}/share_locations?per_page=2&page=2`)).paths,
    ).toEqual(['mastered', 'zeta']);
  });

  it('is null for a caller who may not administer the project, empty while its group locks sharing', async () => {
    const w = await world();
    const reporter = await createUser(t);
    await addProjectMember(t, w.project, reporter, 20);
    expect(await targets(reporter.token, 'home/app')).toBeNull();
    expect(await targets(undefined, 'home/app')).toBeNull();
    expect((await api(t, reporter.token).get(`/api/v4/projects/${w.project.id}/share_locations`)).body).toEqual([]);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${w.home.id}`).send({ share_with_group_lock: true }).expect(200);
    expect(await targets(w.ann.token, 'home/app')).toMatchObject({ count: 0, nodes: [] });
    expect(await targets(reporter.token, 'home/app')).toBeNull();
  });

  it('answers a page of projects in one round trip', async () => {
    const w = await world();
    for (let i = 0; i < 5; i += 1) await createProject(t, { namespace: w.home, path: `more-${i}` });
    const q = (n: number) =>
      `{ group(fullPath: "home") { projects(first: ${n}) { nodes { fullPath shareTargets(first: 2) { count nodes { fullPath } } } } } }`;
    await api(t, w.ann.token).graphql(q(1)); // warm per-process caches before counting
    const one = await t.countQueries(() => api(t, w.ann.token).graphql(q(1)));
    const all = await t.countQueries(() => api(t, w.ann.token).graphql(q(6)));
    expect(all.result.body.errors).toBeUndefined();
    const lists = all.result.body.data.group.projects.nodes.map((p: { shareTargets: unknown }) => p.shareTargets);
    expect(lists).toHaveLength(6);
    for (const list of lists)
      expect(list).toEqual({ count: 5, nodes: [{ fullPath: 'guested' }, { fullPath: 'home' }] });
    expect(all.count).toBe(one.count);
  });
});

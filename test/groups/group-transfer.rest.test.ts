import { addGroupMember, createGroup, createProject, createUser, queryOne } from '../support/factories';
import { GROUP_DETAIL_KEYS, keys } from '../support/keys';
import { captureSystemEvents } from '../support/system-events';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const PUBLIC_GROUP_DETAILS_KEYS = ['avatar_url', 'full_name', 'full_path', 'id', 'name', 'web_url'];
const refused = (reason: string) => ({ message: `Transfer failed: ${reason}` });

describe('POST /groups/:id/transfer', () => {
  it('moves a group with its subtree under another group: paths, ancestry and visibility follow', async () => {
    const ann = await createUser(t);
    const a = await createGroup(t, { path: 'a', name: 'A', visibility: 'public' });
    const b = await createGroup(t, { path: 'b', name: 'B', parent: a, visibility: 'public' });
    const x = await createGroup(t, { path: 'x', name: 'X', parent: b, visibility: 'public' });
    const c = await createGroup(t, { path: 'c', name: 'C', visibility: 'private' });
    const app = await createProject(t, { namespace: x, path: 'app', visibility: 'public' });
    await addGroupMember(t, a, ann, 50);
    await addGroupMember(t, c, ann, 50);

    const res = await api(t, ann.token).post(`/api/v4/groups/a%2Fb/transfer`).send({ group_id: c.id });
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual([...GROUP_DETAIL_KEYS, 'shared_with_groups'].sort());
    expect(res.body).toMatchObject({
      id: b.id,
      full_path: 'c/b',
      full_name: 'C / B',
      parent_id: c.id,
      visibility: 'private',
    });
    const sub = await api(t, ann.token).get('/api/v4/groups/c%2Fb%2Fx');
    expect(sub.body).toMatchObject({ id: x.id, full_name: 'C / B / X', visibility: 'private' });
    const project = await api(t, ann.token).get(`/api/v4/projects/${app.id}`);
    expect(project.body).toMatchObject({ path_with_namespace: 'c/b/x/app', visibility: 'private' });
    // The hierarchy itself moved: c's descendants are b and x, a has none left.
    const under = (g: string) => api(t, ann.token).get(`/api/v4/groups/${g}/descendant_groups`);
    expect((await under('c')).body.map((g: { full_path: string }) => g.full_path).sort()).toEqual(['c/b', 'c/b/x']);
    expect((await under('a')).body).toEqual([]);
    const audit = await queryOne<{ details: Record<string, unknown> }>(
      t,
      "select details from audit_events where entity_type = 'Group' and entity_id = ? order by id desc limit 1",
      [b.id],
    );
    expect(audit?.details).toMatchObject({ change: 'full_path', from: 'a/b', to: 'c/b' });
  });

  it('makes a subgroup top-level without group_id; a group without a direct Owner gets the caller', async () => {
    const a = await createGroup(t, { path: 'a' });
    const b = await createGroup(t, { path: 'b', name: 'B', parent: a });
    const events = await captureSystemEvents(t);
    const res = await api(t, ROOT_TOKEN).post(`/api/v4/groups/${b.id}/transfer`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ full_path: 'b', full_name: 'B', parent_id: null });
    const owner = await queryOne<{ access_level: number }>(
      t,
      'select access_level from group_members where group_id = ? and user_id = 1',
      [b.id],
    );
    expect(owner?.access_level).toBe(50);
    expect((await events()).map((e) => e.event_name)).toEqual(['user_add_to_group']);
  });

  it("answers 401, 404 for groups the caller may not see, 403 below Owner, and GitLab's refusals", async () => {
    const ann = await createUser(t);
    const a = await createGroup(t, { path: 'a', visibility: 'public' });
    const b = await createGroup(t, { path: 'b', parent: a, visibility: 'public' });
    const x = await createGroup(t, { path: 'x', parent: b });
    const mastered = await createGroup(t, { path: 'mastered', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret' });
    const clash = await createGroup(t, { path: 'clash' });
    await createGroup(t, { path: 'b', parent: clash });
    const withProject = await createGroup(t, { path: 'with-project' });
    await createProject(t, { namespace: withProject, path: 'b' });
    await addGroupMember(t, b, ann, 40);
    const post = (token: string | undefined, body: object = {}, id: number | string = b.id) =>
      api(t, token).post(`/api/v4/groups/${id}/transfer`).send(body);

    expect((await post(undefined)).status).toBe(401);
    expect((await post(ann.token, {}, secret.id)).body).toEqual({ message: '404 Group Not Found' });
    expect([(await post(ann.token)).status, (await post(ann.token)).body]).toEqual([403, { message: '403 Forbidden' }]);
    await queryOne(t, 'update group_members set access_level = 50 where group_id = ? and user_id = ?', [b.id, ann.id]);
    expect((await post(ann.token, { group_id: 'abc' })).body).toEqual({ error: 'group_id is invalid' });
    expect((await post(ann.token, { group_id: secret.id })).body).toEqual({ message: '404 Group Not Found' });
    expect((await post(ann.token, { group_id: 99999999999 })).body).toEqual({ message: '404 Group Not Found' });
    const root = await post(ann.token, {}, a.id);
    expect(root.status).toBe(403); // not an Owner of a
    expect((await post(ROOT_TOKEN, {}, a.id)).body).toEqual(refused('Group is already a root group.'));
    expect((await post(ann.token, { group_id: a.id })).body).toEqual(
      refused('Group is already associated to the parent group.'),
    );
    expect((await post(ann.token, { group_id: mastered.id })).body).toEqual(
      refused("You don't have enough permissions."),
    );
    expect((await post(ROOT_TOKEN, { group_id: clash.id })).body).toEqual(
      refused('The parent group already has a subgroup or a project with the same path.'),
    );
    expect((await post(ROOT_TOKEN, { group_id: withProject.id })).body).toEqual(
      refused('The parent group already has a subgroup or a project with the same path.'),
    );
    const down = await post(ROOT_TOKEN, { group_id: x.id });
    expect([down.status, down.body]).toEqual([400, refused('Cannot transfer group to one of its subgroup.')]);
    expect((await post(ROOT_TOKEN, { group_id: b.id })).body).toEqual(
      refused('Cannot transfer group to one of its subgroup.'),
    );
    // A subgroup path reserved at the top level (GitLab's reserved names) cannot become top-level.
    const api2 = await createGroup(t, { path: 'api', parent: a });
    expect((await post(ROOT_TOKEN, {}, api2.id)).body).toEqual(
      refused('Validation failed: Path api is a reserved name'),
    );
    // Nothing moved.
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${b.id}`)).body.full_path).toBe('a/b');
  });
});

describe('groupTransfer (GraphQL)', () => {
  it('moves the group by global ids, as GitLab names the arguments', async () => {
    const a = await createGroup(t, { path: 'a' });
    const b = await createGroup(t, { path: 'b' });
    const q = `mutation($id: ID!, $to: GroupID) { groupTransfer(input: { id: $id, targetId: $to }) { group { fullPath } errors } }`;
    const res = await api(t, ROOT_TOKEN)
      .post('/graphql')
      .send({ query: q, variables: { id: `gid://gitlab/Group/${b.id}`, to: `gid://gitlab/Group/${a.id}` } });
    expect(res.body.data.groupTransfer).toEqual({ group: { fullPath: 'a/b' }, errors: [] });
  });
});

describe('GET /groups/:id/transfer_locations', () => {
  it("lists the caller's Owner groups, less the group's subtree and parent, by path (shares grant nothing here)", async () => {
    const ann = await createUser(t);
    const top = await createGroup(t, { path: 'top' });
    const moving = await createGroup(t, { path: 'moving', parent: top });
    await createGroup(t, { path: 'inner', parent: moving });
    const zeta = await createGroup(t, { path: 'zeta', name: 'Zeta' });
    const zsub = await createGroup(t, { path: 'zsub', parent: zeta });
    const alpha = await createGroup(t, { path: 'alpha', name: 'Alpha' });
    const mastered = await createGroup(t, { path: 'mastered' });
    const sharedIn = await createGroup(t, { path: 'shared-in' });
    const sharedLow = await createGroup(t, { path: 'shared-low' });
    await addGroupMember(t, top, ann, 50);
    await addGroupMember(t, zeta, ann, 50);
    await addGroupMember(t, alpha, ann, 50);
    await addGroupMember(t, mastered, ann, 40);
    for (const [shared, level] of [
      [sharedIn, 50],
      [sharedLow, 40],
    ] as const)
      await api(t, ROOT_TOKEN)
        .post(`/api/v4/groups/${shared.id}/share`)
        .send({ group_id: alpha.id, group_access: level });

    const res = await api(t, ann.token).get(`/api/v4/groups/${moving.id}/transfer_locations`);
    expect(res.status).toBe(200);
    expect(keys(res.body[0])).toEqual(PUBLIC_GROUP_DETAILS_KEYS);
    expect(res.body.map((g: { full_path: string }) => g.full_path)).toEqual(['alpha', 'zeta', 'zeta/zsub']);
    expect(res.headers['x-total']).toBe('3');
    const search = await api(t, ann.token).get(`/api/v4/groups/${moving.id}/transfer_locations?search=zsu`);
    expect(search.body.map((g: { id: number }) => g.id)).toEqual([zsub.id]);
  });

  it('costs the same number of SQL statements for 1 location and for 20 (no N+1)', async () => {
    const ann = await createUser(t);
    const moving = await createGroup(t, { path: 'moving' });
    const home = await createGroup(t, { path: 'home' });
    await addGroupMember(t, moving, ann, 50);
    await addGroupMember(t, home, ann, 50);
    const url = `/api/v4/groups/${moving.id}/transfer_locations?per_page=20`;
    const one = await t.countQueries(() => api(t, ann.token).get(url));
    expect(one.result.body).toHaveLength(1);
    for (let i = 0; i < 20; i += 1) await createGroup(t, { path: `sub-${i}`, parent: home });
    const many = await t.countQueries(() => api(t, ann.token).get(url));
    expect(many.result.body).toHaveLength(20);
    expect(many.count).toBe(one.count);
  });

  it('answers 403 below Owner and 404 for a group the caller may not see', async () => {
    const ann = await createUser(t);
    const g = await createGroup(t, { path: 'g', visibility: 'public' });
    const secret = await createGroup(t, { path: 'secret' });
    expect((await api(t).get(`/api/v4/groups/${g.id}/transfer_locations`)).status).toBe(401);
    const below = await api(t, ann.token).get(`/api/v4/groups/${g.id}/transfer_locations`);
    expect([below.status, below.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api(t, ann.token).get(`/api/v4/groups/${secret.id}/transfer_locations`)).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});

describe('Group.transferTargets', () => {
  async function world() {
    const ann = await createUser(t, { username: 'ann' });
    const top = await createGroup(t, { path: 'top', visibility: 'public' });
    const moving = await createGroup(t, { path: 'moving', parent: top, visibility: 'public' });
    await createGroup(t, { path: 'inner', parent: moving });
    const zeta = await createGroup(t, { path: 'zeta', name: 'Zeta' });
    await createGroup(t, { path: 'zsub', parent: zeta });
    const alpha = await createGroup(t, { path: 'alpha', name: 'Alpha' });
    const mastered = await createGroup(t, { path: 'mastered', visibility: 'public' });
    await createGroup(t, { path: 'elsewhere', visibility: 'public' });
    await addGroupMember(t, top, ann, 50);
    await addGroupMember(t, zeta, ann, 50);
    await addGroupMember(t, alpha, ann, 50);
    await addGroupMember(t, mastered, ann, 40);
    return { ann, top, moving, mastered };
  }
  const TARGETS = (path: string, args = '') =>
    `{ group(fullPath: "${path}") { transferTargets${args} { count nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`;
  const targets = async (token: string | undefined, path: string, args = '') => {
    const res = await api(t, token).graphql(TARGETS(path, args));
    expect(res.body.errors).toBeUndefined();
    return res.body.data.group.transferTargets;
  };
  const restPaths = async (token: string, url: string) => {
    const res = await api(t, token).get(url).expect(200);
    return { paths: res.body.map((g: { full_path: string }) => g.full_path), total: Number(res.headers['x-total']) };
  };

  it('lists what GET /groups/:id/transfer_locations lists to the same caller, by path; search and paging', async () => {
    const w = await world();
    for (const [token, search] of [
      [w.ann.token, ''],
      [w.ann.token, 'zsu'],
      [ROOT_TOKEN, ''],
    ]) {
      const rest = await restPaths(token, `/api/v4/groups/${w.moving.id}/transfer_locations?search=${search}`);
      const gql = await targets(token, 'top/moving', search ? `(search: "${search}")` : '');
      expect(gql.nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual(rest.paths);
      expect(gql.count).toBe(rest.total);
    }
    expect((await targets(w.ann.token, 'top/moving')).nodes).toEqual([
      { fullPath: 'alpha' },
      { fullPath: 'zeta' },
      { fullPath: 'zeta/zsub' },
    ]);
    // Administrators: every group but the group's subtree and its parent.
    expect((await targets(ROOT_TOKEN, 'top/moving')).nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual([
      'alpha',
      'elsewhere',
      'mastered',
      'zeta',
      'zeta/zsub',
    ]);
    // Paging: first/after walk the same order as page/per_page.
    const first = await targets(w.ann.token, 'top/moving', '(first: 2)');
    expect(first).toMatchObject({ count: 3, pageInfo: { hasNextPage: true } });
    const next = await targets(w.ann.token, 'top/moving', `(first: 2, after: "${first.pageInfo.endCursor}")`);
    expect(next).toMatchObject({ count: 3, nodes: [{ fullPath: 'zeta/zsub' }], pageInfo: { hasNextPage: false } });
    const page2 = await restPaths(w.ann.token, `/api/v4/groups/${w.moving.id}/transfer_locations?per_page=2&page=2`);
    expect(page2.paths).toEqual(['zeta/zsub']);
  });

  it('is null, without an error, for a caller who may not administer the group', async () => {
    const w = await world();
    const bob = await createUser(t, { username: 'bob' });
    await addGroupMember(t, w.top, bob, 40);
    expect(await targets(bob.token, 'top/moving')).toBeNull();
    expect(await targets(undefined, 'top/moving')).toBeNull();
    expect(await targets(w.ann.token, 'mastered')).toBeNull(); // ann is its Maintainer
    await api(t, bob.token).get(`/api/v4/groups/${w.moving.id}/transfer_locations`).expect(403);
  });

  it("answers a page of groups in one round trip, each group's own targets", async () => {
    const w = await world();
    for (let i = 0; i < 5; i += 1) await createGroup(t, { path: `mv-${i}`, parent: w.top, visibility: 'public' });
    const q = (n: number) =>
      `{ group(fullPath: "top") { descendantGroups(first: ${n}) { nodes { fullPath transferTargets(first: 3) { count nodes { fullPath } } } } } }`;
    await api(t, w.ann.token).graphql(q(1)); // warm per-process caches before counting
    const one = await t.countQueries(() => api(t, w.ann.token).graphql(q(1)));
    const all = await t.countQueries(() => api(t, w.ann.token).graphql(q(7)));
    expect(all.result.body.errors).toBeUndefined();
    const nodes = all.result.body.data.group.descendantGroups.nodes as {
      fullPath: string;
      transferTargets: { count: number; nodes: { fullPath: string }[] };
    }[];
    expect(nodes).toHaveLength(7);
    // Each group's page is its own: REST's first page of three for that group.
    for (const g of nodes) {
      const rest = await restPaths(
        w.ann.token,
        `/api/v4/groups/${encodeURIComponent(g.fullPath)}/transfer_locations?per_page=3`,
      );
      expect([g.fullPath, g.transferTargets.count, g.transferTargets.nodes.map((n) => n.fullPath)]).toEqual([
        g.fullPath,
        rest.total,
        rest.paths,
      ]);
    }
    expect(nodes.find((g) => g.fullPath === 'top/moving/inner')?.transferTargets).toEqual({
      count: 9,
      nodes: [{ fullPath: 'alpha' }, { fullPath: 'top/mv-0' }, { fullPath: 'top/mv-1' }],
    });
    expect(all.count).toBe(one.count);
  });
});

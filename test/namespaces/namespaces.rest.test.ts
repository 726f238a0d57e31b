import { addGroupMember, createGroup, createUser, queryOne } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { keys } from '../support/keys';

const t = useTestApp();

const NAMESPACE_KEYS = ['full_path', 'id', 'kind', 'name', 'parent_id', 'path'];
const NAMESPACE_ADMIN_KEYS = ['full_path', 'id', 'kind', 'members_count_with_descendants', 'name', 'parent_id', 'path'];
const NOT_FOUND = { message: '404 Namespace Not Found' };

/** alice owns `team` (with a subgroup `team/infra`), bob is a developer of `team`; `other` is unrelated and public. */
async function world() {
  const alice = await createUser(t, { username: 'alice' });
  const bob = await createUser(t, { username: 'bob' });
  const carol = await createUser(t, { username: 'carol' });
  const team = await createGroup(t, { path: 'team', name: 'Team' });
  const infra = await createGroup(t, { path: 'infra', name: 'Infra', parent: team });
  const other = await createGroup(t, { path: 'other', name: 'Other', visibility: 'public' });
  await addGroupMember(t, team, alice, 50);
  await addGroupMember(t, team, bob, 30);
  await addGroupMember(t, infra, carol, 10);
  return { alice, bob, carol, team, infra, other };
}

describe('GET /namespaces', () => {
  it('returns 401 for anonymous callers', async () => {
    const res = await api(t).get('/api/v4/namespaces');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('lists the caller’s own namespace and the groups they are a member of, with descendants, ordered by id', async () => {
    const w = await world();
    const res = await api(t, w.bob.token).get('/api/v4/namespaces');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.map((n: { full_path: string }) => n.full_path)).toEqual(['bob', 'team', 'team/infra']);
    const [own, team] = res.body;
    expect(keys(own)).toEqual(NAMESPACE_KEYS);
    expect(own).toEqual({
      id: w.bob.namespaceId,
      name: 'bob',
      path: 'bob',
      kind: 'user',
      full_path: 'bob',
      parent_id: null,
    });
    expect(keys(team)).toEqual(NAMESPACE_KEYS);
    expect(team).toEqual({
      id: w.team.id,
      name: 'Team',
      path: 'team',
      kind: 'group',
      full_path: 'team',
      parent_id: null,
    });
    expect(res.body[2].parent_id).toBe(w.team.id);
  });

  it('adds members_count_with_descendants for groups the caller administers (distinct users of the subtree)', async () => {
    const w = await world();
    const res = await api(t, w.alice.token).get('/api/v4/namespaces');
    const byPath = Object.fromEntries(res.body.map((n: { full_path: string }) => [n.full_path, n]));
    expect(Object.keys(byPath)).toEqual(['alice', 'team', 'team/infra']);
    expect(keys(byPath.team)).toEqual(NAMESPACE_ADMIN_KEYS);
    expect(byPath.team.members_count_with_descendants).toBe(3);
    expect(byPath['team/infra'].members_count_with_descendants).toBe(1);
    expect(keys(byPath.alice)).toEqual(NAMESPACE_KEYS);
  });

  it('shows administrators every namespace', async () => {
    const w = await world();
    const res = await api(t, ROOT_TOKEN).get('/api/v4/namespaces?per_page=100');
    expect(res.body.map((n: { full_path: string }) => n.full_path)).toEqual([
      'root',
      'alice',
      'bob',
      'carol',
      'team',
      'team/infra',
      'other',
    ]);
    expect(res.body.find((n: { full_path: string }) => n.full_path === 'other').members_count_with_descendants).toBe(0);
    expect(w.other.id).toBeGreaterThan(0);
  });

  it('searches name or path, case-insensitively', async () => {
    const w = await world();
    expect(
      (await api(t, w.bob.token).get('/api/v4/namespaces?search=INF')).body.map((n: { path: string }) => n.path),
    ).toEqual(['infra']);
    expect(
      (await api(t, ROOT_TOKEN).get('/api/v4/namespaces?search=tea')).body.map((n: { path: string }) => n.path),
    ).toEqual(['team']);
    expect((await api(t, ROOT_TOKEN).get('/api/v4/namespaces?search=%25')).body).toEqual([]);
  });

  it('paginates with GitLab’s headers and rejects a bad page', async () => {
    await world();
    const res = await api(t, ROOT_TOKEN).get('/api/v4/namespaces?per_page=2&page=2');
    expect(res.status).toBe(200);
    expect(res.body.map((n: { path: string }) => n.path)).toEqual(['bob', 'carol']);
    expect([
      res.headers['x-total'],
      res.headers['x-total-pages'],
      res.headers['x-per-page'],
      res.headers['x-page'],
      res.headers['x-next-page'],
      res.headers['x-prev-page'],
    ]).toEqual(['7', '4', '2', '2', '3', '1']);
    expect(res.headers.link).toContain('rel="next"');
    const bad = await api(t, ROOT_TOKEN).get('/api/v4/namespaces?page=x');
    expect([bad.status, bad.body]).toEqual([400, { error: 'page is invalid' }]);
  });

  it('costs the same number of SQL statements for 1 group and for 19 groups on a page (no N+1)', async () => {
    const w = await world();
    const one = await t.countQueries(() => api(t, w.alice.token).get('/api/v4/namespaces?per_page=2'));
    expect(one.result.body.map((n: { kind: string }) => n.kind)).toEqual(['user', 'group']);
    for (let i = 0; i < 20; i += 1) await createGroup(t, { path: `sub-${i}`, parent: w.team });
    const many = await t.countQueries(() => api(t, w.alice.token).get('/api/v4/namespaces?per_page=20'));
    expect(many.result.body).toHaveLength(20);
    expect(many.count).toBe(one.count);
  });
});

describe('GET /namespaces/:id', () => {
  it('finds a namespace by integer id or URL-encoded full path (case-insensitive)', async () => {
    const w = await world();
    const byId = await api(t, w.bob.token).get(`/api/v4/namespaces/${w.infra.id}`);
    expect(byId.status).toBe(200);
    expect(keys(byId.body)).toEqual(NAMESPACE_KEYS);
    expect(byId.body).toEqual({
      id: w.infra.id,
      name: 'Infra',
      path: 'infra',
      kind: 'group',
      full_path: 'team/infra',
      parent_id: w.team.id,
    });
    const byPath = await api(t, w.bob.token).get('/api/v4/namespaces/Team%2FInfra');
    expect(byPath.body).toEqual(byId.body);
    expect((await api(t, w.bob.token).get('/api/v4/namespaces/bob')).body.kind).toBe('user');
  });

  it('answers 404 Namespace Not Found for namespaces the caller may not see and for unknown ids', async () => {
    const w = await world();
    for (const ref of [
      String(w.other.id),
      'other',
      'alice',
      String(w.alice.namespaceId),
      '999999',
      '99999999999',
      'no%2Fsuch',
    ]) {
      const res = await api(t, w.bob.token).get(`/api/v4/namespaces/${ref}`);
      expect([ref, res.status, res.body]).toEqual([ref, 404, NOT_FOUND]);
    }
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/namespaces/${w.other.id}`)).status).toBe(200);
  });

  it('auth matrix: anonymous 401, non-member 404, member 200, admin 200', async () => {
    const w = await world();
    const outsider = await createUser(t);
    expect((await api(t).get(`/api/v4/namespaces/${w.team.id}`)).status).toBe(401);
    expect((await api(t, outsider.token).get(`/api/v4/namespaces/${w.team.id}`)).status).toBe(404);
    expect((await api(t, w.carol.token).get(`/api/v4/namespaces/${w.infra.id}`)).status).toBe(200);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/namespaces/${w.team.id}`)).body.members_count_with_descendants).toBe(
      3,
    );
  });

  it('stops showing a group once the membership has expired', async () => {
    const w = await world();
    await queryOne(t, `update group_members set expires_at = current_date - 1 where user_id = ? returning id`, [
      w.bob.id,
    ]);
    expect((await api(t, w.bob.token).get(`/api/v4/namespaces/${w.team.id}`)).status).toBe(404);
  });
});

describe('GraphQL namespace(fullPath) and namespaces', () => {
  it('shows the same values as REST and the same errors', async () => {
    const w = await world();
    const rest = (await api(t, w.alice.token).get('/api/v4/namespaces/team')).body;
    const gql = await api(t, w.alice.token).graphql(
      '{ namespace(fullPath: "team") { id: databaseId name path kind fullPath parentId membersCountWithDescendants } }',
    );
    expect(gql.body.data.namespace).toEqual({
      id: rest.id,
      name: rest.name,
      path: rest.path,
      kind: rest.kind,
      fullPath: rest.full_path,
      parentId: rest.parent_id,
      membersCountWithDescendants: rest.members_count_with_descendants,
    });
    const list = await api(t, w.bob.token).graphql(
      '{ namespaces(search: "infra") { count nodes { fullPath membersCountWithDescendants } } }',
    );
    expect(list.body.data.namespaces).toEqual({
      count: 1,
      nodes: [{ fullPath: 'team/infra', membersCountWithDescendants: null }],
    });
    const missing = await api(t, w.bob.token).graphql('{ namespace(fullPath: "other") { id } }');
    // Hidden or missing: null without an error (GitLab's convention for a root lookup).
    expect(missing.body).toEqual({ data: { namespace: null } });
    expect((await api(t, w.bob.token).get('/api/v4/namespaces/other')).status).toBe(404);
    const anonymous = await api(t).graphql('{ namespaces { count } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

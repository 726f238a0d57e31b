import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * GitLab's `User.groupMemberships` and `User.projectMemberships` (the root `userMemberships`, REST's
 * GET /users/:user_id/memberships, runs in the internal view only).
 */
const t = useTestApp();

type Membership = { databaseId: number; accessLevel: { integerValue: number }; user: { username: string } };
type Lists = {
  groupMemberships: { count: number; nodes: (Membership & { group: { id: string } | null })[] };
  projectMemberships: { count: number; nodes: (Membership & { project: { id: string } | null })[] };
};

const LISTS = (userId: number, args = '') => `{ user(id: "gid://gitlab/User/${userId}") {
  groupMemberships${args} { count nodes { databaseId accessLevel { integerValue } group { id } user { username } } }
  projectMemberships${args} { count nodes { databaseId accessLevel { integerValue } project { id } user { username } } } } }`;

async function lists(token: string | undefined, userId: number, args = ''): Promise<Lists> {
  const res = await api(t, token).graphql(LISTS(userId, args));
  expect(res.body.errors).toBeUndefined();
  return res.body.data.user as Lists;
}

const dbId = (gid: string | undefined) => Number(String(gid).split('/').pop());

/** The lists as REST's memberships: [source_type, source_id, access_level], sorted. */
const asRest = (l: Lists) =>
  [
    ...l.groupMemberships.nodes.map((m) => ['Namespace', dbId(m.group?.id), m.accessLevel.integerValue]),
    ...l.projectMemberships.nodes.map((m) => ['Project', dbId(m.project?.id), m.accessLevel.integerValue]),
  ].sort();

async function world() {
  const u = await createUser(t, { username: 'mem-user' });
  const stranger = await createUser(t, { username: 'mem-stranger' });
  const colleague = await createUser(t, { username: 'mem-colleague' });
  const open = await createGroup(t, { path: 'open', visibility: 'public' });
  const closed = await createGroup(t, { path: 'closed', visibility: 'private' });
  const sub = await createGroup(t, { path: 'sub', parent: closed, visibility: 'private' });
  const openApp = await createProject(t, { namespace: open, path: 'app', visibility: 'public' });
  const secretApp = await createProject(t, { namespace: closed, path: 'app', visibility: 'private' });
  const elsewhere = await createProject(t, {
    namespace: { id: colleague.namespaceId },
    path: 'tool',
    visibility: 'private',
  });
  await addGroupMember(t, open, u, 30);
  await addGroupMember(t, closed, u, 10);
  await addGroupMember(t, sub, u, 40);
  await addProjectMember(t, openApp, u, 40);
  await addProjectMember(t, secretApp, u, 20);
  await addProjectMember(t, elsewhere, u, 30);
  await addGroupMember(t, closed, colleague, 30);
  return { u, stranger, colleague, open, closed, sub, openApp, secretApp, elsewhere };
}

describe('User.groupMemberships and User.projectMemberships', () => {
  it('list what GET /users/:id/memberships lists to an administrator, newest first', async () => {
    const w = await world();
    const mine = await lists(ROOT_TOKEN, w.u.id);
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/users/${w.u.id}/memberships?per_page=100`).expect(200))
      .body as {
      source_type: string;
      source_id: number;
      access_level: number;
    }[];
    expect(asRest(mine)).toEqual(rest.map((m) => [m.source_type, m.source_id, m.access_level]).sort());
    expect([mine.groupMemberships.count, mine.projectMemberships.count]).toEqual([3, 3]);
    // GitLab's connection orders the user's memberships by id, newest first.
    expect(mine.groupMemberships.nodes.map((m) => m.group?.id)).toEqual(
      [w.sub, w.closed, w.open].map((g) => `gid://gitlab/Group/${g.id}`),
    );
    expect(mine.projectMemberships.nodes.map((m) => m.project?.id)).toEqual(
      [w.elsewhere, w.secretApp, w.openApp].map((p) => `gid://gitlab/Project/${p.id}`),
    );
    for (const l of [mine.groupMemberships, mine.projectMemberships]) {
      const ids = l.nodes.map((m) => m.databaseId);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(new Set(l.nodes.map((m) => m.user.username))).toEqual(new Set(['mem-user']));
    }
    // The user themself: all of them, as they may read each group and project they are a member of.
    expect(asRest(await lists(w.u.token, w.u.id))).toEqual(asRest(mine));
  });

  it("show others only the memberships of groups and projects they may read (GitLab's read_group / read_project per node)", async () => {
    const w = await world();
    const strangers = await lists(w.stranger.token, w.u.id);
    expect(strangers.groupMemberships).toMatchObject({
      count: 1,
      nodes: [{ group: { id: `gid://gitlab/Group/${w.open.id}` } }],
    });
    expect(strangers.projectMemberships).toMatchObject({
      count: 1,
      nodes: [{ project: { id: `gid://gitlab/Project/${w.openApp.id}` } }],
    });
    expect(asRest(await lists(undefined, w.u.id))).toEqual(asRest(strangers));
    // A member of the private group reads it, its subgroup and its project, and their own personal project.
    const colleagues = await lists(w.colleague.token, w.u.id);
    expect(colleagues.groupMemberships.nodes.map((m) => dbId(m.group?.id))).toEqual([w.sub.id, w.closed.id, w.open.id]);
    expect(colleagues.projectMemberships.nodes.map((m) => dbId(m.project?.id))).toEqual([
      w.elsewhere.id,
      w.secretApp.id,
      w.openApp.id,
    ]);
    // REST's list stays administrators' only.
    expect((await api(t, w.stranger.token).get(`/api/v4/users/${w.u.id}/memberships`)).status).toBe(403);
  });

  it('page with first/after and last/before', async () => {
    const w = await world();
    const all = (await lists(ROOT_TOKEN, w.u.id)).groupMemberships.nodes.map((m) => m.databaseId);
    const PAGE = (args: string) =>
      `{ user(id: "gid://gitlab/User/${w.u.id}") { groupMemberships(${args}) { count nodes { databaseId } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const page = async (args: string) => {
      const res = await api(t, ROOT_TOKEN).graphql(PAGE(args));
      expect(res.body.errors).toBeUndefined();
      return res.body.data.user.groupMemberships;
    };
    const first = await page('first: 2');
    expect(first.nodes.map((m: Membership) => m.databaseId)).toEqual(all.slice(0, 2));
    expect(first).toMatchObject({ count: 3, pageInfo: { hasNextPage: true } });
    const next = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(next.nodes.map((m: Membership) => m.databaseId)).toEqual(all.slice(2));
    expect(next.pageInfo.hasNextPage).toBe(false);
    const back = await page(`last: 1, before: "${next.pageInfo.startCursor}"`);
    expect(back.nodes.map((m: Membership) => m.databaseId)).toEqual(all.slice(1, 2));
  });

  it('cost the same statements for a page of 2 users and of 6', async () => {
    await world();
    for (let i = 0; i < 4; i += 1) {
      const more = await createUser(t, { username: `mem-more-${i}` });
      await addGroupMember(t, await createGroup(t, { path: `more-${i}`, visibility: 'public' }), more, 30);
    }
    const q = (n: number) =>
      `{ users(search: "mem-", first: ${n}) { nodes { username groupMemberships(first: 2) { count nodes { accessLevel { integerValue } group { fullPath } } }
        projectMemberships(first: 2) { count nodes { project { fullPath } } } } } }`;
    await api(t, ROOT_TOKEN).graphql(q(2)); // warm per-process caches before counting
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(2)));
    const six = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(6)));
    expect(six.result.body.errors).toBeUndefined();
    const nodes = six.result.body.data.users.nodes as { username: string; groupMemberships: { count: number } }[];
    expect(nodes).toHaveLength(6);
    expect(nodes.find((n) => n.username === 'mem-user')!.groupMemberships.count).toBe(3);
    expect(nodes.find((n) => n.username === 'mem-more-0')!.groupMemberships.count).toBe(1);
    expect(six.count).toBeLessThanOrEqual(two.count);
  });
});

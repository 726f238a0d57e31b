import { addProjectMember, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Our `User.personalProjects` (GitLab's GraphQL has no such list): the public form of REST's
 * GET /users/:user_id/projects, whose root `userProjects` runs in the internal view only.
 */
const t = useTestApp();

const paths = (body: { path_with_namespace: string }[]) => body.map((p) => p.path_with_namespace);

async function world() {
  const owner = await createUser(t, { username: 'pp-owner' });
  const dev = await createUser(t, { username: 'pp-dev' });
  const stranger = await createUser(t, { username: 'pp-stranger' });
  const ns = { id: owner.namespaceId };
  await createProject(t, { namespace: ns, path: 'zeta', name: 'Zeta', visibility: 'public' });
  await createProject(t, { namespace: ns, path: 'beta', name: 'Beta', visibility: 'internal' });
  const secret = await createProject(t, { namespace: ns, path: 'alpha', name: 'Alpha', visibility: 'private' });
  await createProject(t, { namespace: ns, path: 'gamma', name: 'Gamma', visibility: 'private' });
  await addProjectMember(t, secret, dev, 30);
  // Someone else's project: never in the owner's list.
  await createProject(t, { namespace: { id: dev.namespaceId }, path: 'own', name: 'Own', visibility: 'public' });
  return { owner, dev, stranger };
}

async function personal(token: string | undefined, username: string, args = '') {
  const res = await api(t, token).graphql(
    `{ user(username: "${username}") { personalProjects${args} { count nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`,
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.user.personalProjects as {
    count: number;
    nodes: { fullPath: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string };
  };
}
const full = (l: { nodes: { fullPath: string }[] }) => l.nodes.map((n) => n.fullPath);

describe('User.personalProjects', () => {
  it('lists what GET /users/:id/projects lists to the same caller, by name by default', async () => {
    const w = await world();
    for (const token of [ROOT_TOKEN, w.owner.token, w.dev.token, w.stranger.token, undefined]) {
      const rest = await api(t, token).get(`/api/v4/users/${w.owner.id}/projects?order_by=name&sort=asc`).expect(200);
      const list = await personal(token, 'pp-owner');
      expect(full(list)).toEqual(paths(rest.body));
      expect(list.count).toBe(Number(rest.headers['x-total']));
    }
    expect(full(await personal(w.dev.token, 'pp-owner'))).toEqual(['pp-owner/alpha', 'pp-owner/beta', 'pp-owner/zeta']);
    expect(full(await personal(undefined, 'pp-owner'))).toEqual(['pp-owner/zeta']);
    // Another sort, as REST's order_by and sort.
    const rest = await api(t, w.owner.token).get(`/api/v4/users/${w.owner.id}/projects?order_by=id&sort=desc`);
    expect(full(await personal(w.owner.token, 'pp-owner', '(sort: ID_DESC)'))).toEqual(paths(rest.body));
  });

  it("takes starredProjects' arguments: search, minAccessLevel, programmingLanguageName", async () => {
    const w = await world();
    const rest = await api(t, w.owner.token).get(
      `/api/v4/users/${w.owner.id}/projects?search=eta&order_by=name&sort=asc`,
    );
    const found = await personal(w.owner.token, 'pp-owner', '(search: "eta")');
    expect(full(found)).toEqual(paths(rest.body));
    expect(full(found)).toEqual(['pp-owner/beta', 'pp-owner/zeta']);
    // The caller's level in each project: the developer reaches one as Developer, none as Maintainer.
    expect(full(await personal(w.dev.token, 'pp-owner', '(minAccessLevel: DEVELOPER)'))).toEqual(['pp-owner/alpha']);
    expect((await personal(w.dev.token, 'pp-owner', '(minAccessLevel: MAINTAINER)')).count).toBe(0);
    expect((await personal(undefined, 'pp-owner', '(minAccessLevel: GUEST)')).count).toBe(0);
    expect((await personal(w.owner.token, 'pp-owner', '(minAccessLevel: OWNER)')).count).toBe(4);
    // No repository is kept, so no project has a detected language.
    expect((await personal(w.owner.token, 'pp-owner', '(programmingLanguageName: "Ruby")')).count).toBe(0);
  });

  it('pages with first/after', async () => {
    const w = await world();
    const first = await personal(w.owner.token, 'pp-owner', '(first: 3)');
    expect(full(first)).toEqual(['pp-owner/alpha', 'pp-owner/beta', 'pp-owner/gamma']);
    expect(first).toMatchObject({ count: 4, pageInfo: { hasNextPage: true } });
    const next = await personal(w.owner.token, 'pp-owner', `(first: 3, after: "${first.pageInfo.endCursor}")`);
    expect(full(next)).toEqual(['pp-owner/zeta']);
    expect(next.pageInfo.hasNextPage).toBe(false);
  });

  it('costs the same statements for a page of 2 users and of 6', async () => {
    await world();
    for (let i = 0; i < 4; i += 1) {
      const more = await createUser(t, { username: `pp-more-${i}` });
      await createProject(t, { namespace: { id: more.namespaceId }, path: `p${i}`, visibility: 'public' });
    }
    const q = (n: number) =>
      `{ users(search: "pp-", first: ${n}) { nodes { username personalProjects(first: 2) { count nodes { fullPath } } } } }`;
    await api(t, ROOT_TOKEN).graphql(q(2)); // warm per-process caches before counting
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(2)));
    const six = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q(6)));
    expect(six.result.body.errors).toBeUndefined();
    const nodes = six.result.body.data.users.nodes as { username: string; personalProjects: { count: number } }[];
    expect(nodes).toHaveLength(6);
    expect(Object.fromEntries(nodes.map((n) => [n.username, n.personalProjects.count]))).toMatchObject({
      'pp-owner': 4,
      'pp-dev': 1,
      'pp-stranger': 0,
    });
    expect(six.count).toBeLessThanOrEqual(two.count);
  });
});

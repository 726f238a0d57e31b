import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

// GitLab's shared pickers and the group's shared projects tab and environment form
// (test/graphql/gitlab-frontend/documents), run unmodified with the variables GitLab's frontend sends,
// and compared with REST's answers or with the rows seeded.
const USERS_AUTOCOMPLETE = 'graphql_shared/queries/users_autocomplete.query.graphql';
const PROJECT_AUTOCOMPLETE = 'graphql_shared/queries/project_autocomplete_users.query.graphql';
const USERS_GROUPS = 'graphql_shared/queries/get_users_groups.query.graphql';
const USERS_PROJECTS = 'graphql_shared/queries/get_users_projects.query.graphql';
const SHARED_PROJECTS = 'groups/show/graphql/queries/shared_projects.query.graphql';
/**
 * GitLab's edit environment form query (environments/graphql/queries/environment.query.graphql) without its
 * three Kubernetes fields (clusterAgent, kubernetesNamespace, fluxResourcePath: Kubernetes is not served, so
 * the stored document is listed as out of scope in docs/gitlab-frontend-documents.md).
 */
const ENVIRONMENT = `query getEnvironment($projectFullPath: ID!, $environmentName: String) {
  project(fullPath: $projectFullPath) { id environment(name: $environmentName) { id name description externalUrl } }
}`;

async function gql(query: string, variables: Record<string, unknown>, token: string) {
  const res = await api(t, token).post('/api/graphql').send({ query, variables });
  expect([res.status, res.body.errors]).toEqual([200, undefined]);
  return res.body.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function rest<T>(path: string, token = ROOT_TOKEN): Promise<T> {
  return (await api(t, token).get(`/api/v4${path}`).expect(200)).body as T;
}

async function data(path: string, variables: Record<string, unknown>, token: string) {
  const res = await runDocument(t.server, path, variables, token);
  expect([path, res.status, res.errors]).toEqual([path, 200, undefined]);
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

interface RestUser {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
}
interface RestProject {
  id: number;
  name: string;
  name_with_namespace: string;
  path_with_namespace: string;
}
interface RestGroup {
  id: number;
  name: string;
  full_name: string;
  full_path: string;
}

/**
 * acme (private) with acme/team and the project acme/api. alice: Owner of acme; carol: Developer of acme/team;
 * bob: Maintainer of acme/api; acme is shared with org (dave a member of org), acme/api with partners (erin);
 * frank belongs to an unrelated group; gina's membership of acme expired; hank, a member of acme, is blocked.
 */
async function world() {
  const u = (username: string, name: string) => createUser(t, { username, name });
  const [alice, bob, carol, dave, erin, frank, gina, hank] = [
    await u('alice', 'Alice Ames'),
    await u('bob', 'Bob Brown'),
    await u('carol', 'Carol Cruz'),
    await u('dave', 'Dave Dunn'),
    await u('erin', 'Erin Eck'),
    await u('frank', 'Frank Fox'),
    await u('gina', 'Gina Gold'),
    await u('hank', 'Hank Hill'),
  ];
  const acme = await createGroup(t, { path: 'acme', name: 'Acme' });
  const team = await createGroup(t, { path: 'team', name: 'Team', parent: acme });
  const org = await createGroup(t, { path: 'org', name: 'Org' });
  const partners = await createGroup(t, { path: 'partners', name: 'Partners' });
  const other = await createGroup(t, { path: 'other', name: 'Other' });
  const project = await createProject(t, { namespace: acme, path: 'api', name: 'API' });
  await addGroupMember(t, acme, alice, 50);
  await addGroupMember(t, team, carol, 30);
  await addProjectMember(t, project, bob, 40);
  await addGroupMember(t, org, dave, 30);
  await addGroupMember(t, partners, erin, 30);
  await addGroupMember(t, other, frank, 30);
  await addGroupMember(t, acme, hank, 30);
  await t.orm.em
    .getConnection()
    .execute(
      `insert into group_members (group_id, user_id, access_level, expires_at) values (?, ?, 30, '2001-01-01')`,
      [acme.id, gina.id],
    );
  await api(t, ROOT_TOKEN).post(`/api/v4/users/${hank.id}/block`).expect(201);
  await api(t, ROOT_TOKEN)
    .post(`/api/v4/groups/${acme.id}/share`)
    .send({ group_id: org.id, group_access: 20 })
    .expect(201);
  await api(t, ROOT_TOKEN)
    .post(`/api/v4/projects/${project.id}/share`)
    .send({ group_id: partners.id, group_access: 30 })
    .expect(201);
  return { alice, bob, carol, dave, erin, frank, gina, hank, acme, team, org, partners, project };
}

const autocompleted = (r: RestUser) => ({
  id: `gid://gitlab/User/${r.id}`,
  avatarUrl: r.avatar_url,
  name: r.name,
  username: r.username,
});
const usernames = (users: { username: string }[]) => users.map((x) => x.username);

describe("GitLab's user autocomplete (users_autocomplete, project_autocomplete_users)", () => {
  it("a project's autocomplete answers its active team (REST's GET /projects/:id/users) by name", async () => {
    const w = await world();
    const team = (await rest<RestUser[]>(`/projects/${w.project.id}/users?per_page=100`)).filter(
      (r) => r.state === 'active',
    );
    const expected = [...team].sort((a, b) => a.name.localeCompare(b.name)).map(autocompleted);
    expect(usernames(expected)).toEqual(['alice', 'bob', 'erin']);
    const vars = { fullPath: w.project.fullPath, isProject: true };
    const got = await data(USERS_AUTOCOMPLETE, vars, w.bob.token);
    expect(got).toEqual({ project: { id: `gid://gitlab/Project/${w.project.id}`, autocompleteUsers: expected } });
    // The issue and merge request pickers' document: GitLab's User fragment and availability.
    // In a list of projects, each project's own team.
    const listed = await api(t, w.bob.token).graphql(
      '{ projects(membership: true) { nodes { fullPath autocompleteUsers { username } } } }',
    );
    expect(listed.body.data.projects.nodes).toEqual([
      { fullPath: w.project.fullPath, autocompleteUsers: expected.map((u) => ({ username: u.username })) },
    ]);
    const picker = await data(PROJECT_AUTOCOMPLETE, { fullPath: w.project.fullPath, search: 'eri' }, w.bob.token);
    expect(picker.workspace.users).toEqual([
      expect.objectContaining({ ...autocompleted(team.find((r) => r.username === 'erin')!), status: null }),
    ]);
  });

  it("a group's autocomplete answers the members of its hierarchy, its projects and the groups invited to them", async () => {
    const w = await world();
    const vars = { fullPath: w.acme.fullPath, isProject: false };
    const got = await data(USERS_AUTOCOMPLETE, vars, w.alice.token);
    // gina (expired), hank (blocked) and frank (another group) are not listed.
    expect(usernames(got.group.autocompleteUsers)).toEqual(['alice', 'bob', 'carol', 'dave', 'erin']);
    const all = await rest<RestUser[]>('/users?per_page=100');
    const byName = new Map(all.map((r) => [r.username, r]));
    expect(got.group.autocompleteUsers[2]).toEqual(autocompleted(byName.get('carol')!));
    // A subgroup: its ancestors' members, its own and those of the groups invited to its ancestors.
    const sub = await data(USERS_AUTOCOMPLETE, { ...vars, fullPath: w.team.fullPath }, w.alice.token);
    expect(usernames(sub.group.autocompleteUsers)).toEqual(['alice', 'carol', 'dave']);
    const searched = await data(USERS_AUTOCOMPLETE, { ...vars, search: 'Cruz' }, w.alice.token);
    expect(usernames(searched.group.autocompleteUsers)).toEqual(['carol']);
    // A list of groups reads every group's autocomplete in one statement, each as the group's own.
    const listed = await api(t, w.alice.token).graphql(
      '{ groups(sort: "path_asc") { nodes { fullPath autocompleteUsers(search: "a") { username } } } }',
    );
    const perGroup = async (fullPath: string) =>
      (await data(USERS_AUTOCOMPLETE, { ...vars, fullPath, search: 'a' }, w.alice.token)).group.autocompleteUsers;
    const nodes = listed.body.data.groups.nodes as { fullPath: string; autocompleteUsers: { username: string }[] }[];
    expect(nodes.map((n) => n.fullPath)).toEqual(['acme', 'acme/team']);
    for (const n of nodes)
      expect(n.autocompleteUsers).toEqual(usernames(await perGroup(n.fullPath)).map((u) => ({ username: u })));
    expect(usernames(nodes[0].autocompleteUsers)).toEqual(['alice', 'carol', 'dave']);
    // A group the caller may not see answers nothing.
    const hidden = await runDocument(t.server, USERS_AUTOCOMPLETE, vars, w.frank.token);
    expect(hidden.data?.group ?? null).toBeNull();
  });
});

describe("GitLab's group and project pickers (get_users_groups, get_users_projects)", () => {
  it("get_users_groups lists the caller's owned top-level groups as REST's owned groups, paged", async () => {
    const w = await world();
    await createGroup(t, { path: 'zeta', name: 'Zeta' }).then((z) => addGroupMember(t, z, w.alice, 50));
    await createGroup(t, { path: 'beta', name: 'Beta' }).then((b) => addGroupMember(t, b, w.alice, 30));
    const vars = { topLevelOnly: true, ownedOnly: true, first: 1, sort: 'name_asc' };
    const first = (await data(USERS_GROUPS, vars, w.alice.token)).groups;
    const second = (await data(USERS_GROUPS, { ...vars, after: first.pageInfo.endCursor }, w.alice.token)).groups;
    const owned = await rest<RestGroup[]>(
      '/groups?owned=true&top_level_only=true&order_by=name&sort=asc',
      w.alice.token,
    );
    expect(owned.map((g) => g.full_path)).toEqual(['acme', 'zeta']);
    expect([...first.nodes, ...second.nodes]).toEqual(
      owned.map((g) => ({
        id: `gid://gitlab/Group/${g.id}`,
        name: g.name,
        fullName: g.full_name,
        fullPath: g.full_path,
      })),
    );
    expect([first.pageInfo.hasNextPage, second.pageInfo.hasNextPage]).toEqual([true, false]);
    // Without ownedOnly: every group alice is a member of is listed too; sort id_desc as REST's order_by=id.
    const all = (await data(USERS_GROUPS, { first: 20, sort: 'id_desc' }, w.alice.token)).groups;
    const visible = await rest<RestGroup[]>('/groups?all_available=true&order_by=id&sort=desc', w.alice.token);
    expect(all.nodes.map((g: { fullPath: string }) => g.fullPath)).toEqual(visible.map((g) => g.full_path));
  });

  it("get_users_projects searches the caller's projects with a minimum role, as REST", async () => {
    const w = await world();
    await createProject(t, { namespace: w.team, path: 'app', name: 'App' });
    await createProject(t, { namespace: { id: w.carol.namespaceId }, path: 'apps', name: 'Apps' });
    const vars = { search: 'ap', first: 20, minAccessLevel: 'DEVELOPER' };
    const got = (await data(USERS_PROJECTS, vars, w.carol.token)).projects;
    const listed = await rest<RestProject[]>('/projects?membership=true&min_access_level=30&search=ap', w.carol.token);
    expect(listed.map((p) => p.path_with_namespace).sort()).toEqual(['acme/team/app', 'carol/apps']);
    expect(got.nodes).toEqual(
      listed.map((p) => ({
        id: `gid://gitlab/Project/${p.id}`,
        name: p.name,
        nameWithNamespace: p.name_with_namespace,
      })),
    );
    const maintainer = (await data(USERS_PROJECTS, { ...vars, minAccessLevel: 'MAINTAINER' }, w.carol.token)).projects;
    expect(maintainer.nodes.map((p: { name: string }) => p.name)).toEqual(['Apps']);
  });
});

describe("GitLab's group overview: shared projects (shared_projects)", () => {
  it('lists the projects shared with the group that the caller may see, newest first, as REST', async () => {
    const w = await world();
    const tools = await createProject(t, { namespace: { id: w.frank.namespaceId }, path: 'tools', name: 'Tools' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${tools.id}/share`)
      .send({ group_id: w.partners.id, group_access: 20 })
      .expect(201);
    const vars = { fullPath: w.partners.fullPath, first: 1 };
    const first = (await data(SHARED_PROJECTS, vars, w.erin.token)).group.sharedProjects;
    const second = (await data(SHARED_PROJECTS, { ...vars, after: first.pageInfo.endCursor }, w.erin.token)).group
      .sharedProjects;
    const listed = await rest<RestProject[]>(
      `/groups/${w.partners.id}/projects/shared?order_by=id&sort=desc`,
      w.erin.token,
    );
    expect(listed.map((p) => p.path_with_namespace)).toEqual(['frank/tools', 'acme/api']);
    expect(first.count).toBe(2);
    expect([...first.nodes, ...second.nodes]).toEqual(
      listed.map((p) =>
        expect.objectContaining({ id: `gid://gitlab/Project/${p.id}`, nameWithNamespace: p.name_with_namespace }),
      ),
    );
    const searched = (await data(SHARED_PROJECTS, { ...vars, search: 'tool', sort: 'name_asc' }, w.erin.token)).group;
    expect(searched.sharedProjects.nodes.map((p: { fullPath: string }) => p.fullPath)).toEqual(['frank/tools']);
    // Administrators see the same list; a caller who sees neither project sees none of them.
    const root = (await data(SHARED_PROJECTS, { ...vars, first: 20 }, ROOT_TOKEN)).group.sharedProjects;
    expect(root.count).toBe(2);
    await api(t, ROOT_TOKEN).put(`/api/v4/groups/${w.partners.id}`).send({ visibility: 'public' }).expect(200);
    const outsider = (await data(SHARED_PROJECTS, { ...vars, first: 20 }, w.dave.token)).group.sharedProjects;
    expect(outsider).toMatchObject({ count: 0, nodes: [] });
  });
});

describe("GitLab's edit environment form (environment.query)", () => {
  it('reads the environment by name as REST shows it, and null for a Guest', async () => {
    const w = await world();
    const created = await api(t, w.bob.token)
      .post(`/api/v4/projects/${w.project.id}/environments`)
      .send({ name: 'review/app', external_url: 'https://review.example.com' })
      .expect(201);
    const env = await rest<{ id: number; name: string; external_url: string }>(
      `/projects/${w.project.id}/environments/${created.body.id}`,
      w.bob.token,
    );
    const vars = { projectFullPath: w.project.fullPath, environmentName: 'review/app' };
    const got = await gql(ENVIRONMENT, vars, w.bob.token);
    expect(got.project).toEqual({
      id: `gid://gitlab/Project/${w.project.id}`,
      environment: {
        id: `gid://gitlab/Environment/${env.id}`,
        name: env.name,
        description: null,
        externalUrl: env.external_url,
      },
    });
    const missing = await gql(ENVIRONMENT, { ...vars, environmentName: 'review' }, w.bob.token);
    expect(missing.project.environment).toBeNull();
    const guest = await createUser(t, { username: 'guest' });
    await addProjectMember(t, w.project, guest, 10);
    expect((await gql(ENVIRONMENT, vars, guest.token)).project.environment).toBeNull();
  });
});

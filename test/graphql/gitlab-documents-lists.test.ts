import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import type { TestUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

// GitLab's frontend documents of the group and project lists (test/graphql/gitlab-frontend/documents),
// run unmodified with the variables GitLab's frontend sends, and compared with REST's answers.
const YOUR_WORK = 'projects/your_work/graphql/queries/projects.query.graphql';
const PERSONAL = 'projects/your_work/graphql/queries/personal_projects.query.graphql';
const STARRED = 'projects/your_work/graphql/queries/starred_projects.query.graphql';
const COUNTS = 'projects/your_work/graphql/queries/project_counts.query.graphql';
const ADMIN = 'admin/projects/index/graphql/queries/admin_projects.query.graphql';
const ADMIN_COUNTS = 'admin/projects/index/graphql/queries/project_counts.query.graphql';
const TOKEN_PICKER = 'access_tokens/graphql/queries/get_projects.query.graphql';
const AUTOCOMPLETE = 'graphql_shared/queries/projects_autocomplete.query.graphql';
const SUBGROUP_PICKER = 'groups/queries/search_groups_where_user_can_create_subgroups.query.graphql';
const ADMIN_GROUP_COUNTS = 'admin/groups/index/graphql/queries/group_counts.query.graphql';
const GROUP_COUNTS = 'groups/your_work/graphql/queries/group_counts.query.graphql';
const CREATE_ENV = 'environments/graphql/mutations/create_environment.mutation.graphql';
const UPDATE_ENV = 'environments/graphql/mutations/update_environment.mutation.graphql';

interface RestProject {
  id: number;
  name: string;
  name_with_namespace: string;
  path_with_namespace: string;
  web_url: string;
  avatar_url: string | null;
  description: string;
  visibility: string;
  archived: boolean;
  star_count: number;
  forks_count: number;
  open_issues_count: number;
  tag_list: string[];
  created_at: string;
  last_activity_at: string;
  issues_enabled: boolean;
  merge_requests_enabled: boolean;
  permissions?: { project_access: { access_level: number } | null; group_access: { access_level: number } | null };
  statistics?: { storage_size: number };
}

async function rest<T>(path: string, token = ROOT_TOKEN): Promise<{ body: T; total: number }> {
  const res = await api(t, token).get(`/api/v4${path}`).expect(200);
  return { body: res.body as T, total: Number(res.headers['x-total']) };
}

async function data(path: string, variables: Record<string, unknown>, token: string) {
  const res = await runDocument(t.server, path, variables, token);
  expect([path, res.status, res.errors]).toEqual([path, 200, undefined]);
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const gid = (id: number) => `gid://gitlab/Project/${id}`;

/** What GitLab's Project fragment shows of a project, from REST's answer for the same project. */
function expectedProject(r: RestProject, caller?: TestUser) {
  // REST's permissions show memberships; the owner of a personal project is its Owner (GitLab's authorization).
  const personal = caller && r.path_with_namespace.startsWith(`${caller.username}/`);
  const level = personal
    ? 50
    : Math.max(r.permissions?.project_access?.access_level ?? 0, r.permissions?.group_access?.access_level ?? 0);
  return {
    id: gid(r.id),
    fullPath: r.path_with_namespace,
    avatarUrl: r.avatar_url,
    nameWithNamespace: r.name_with_namespace,
    webUrl: r.web_url,
    editPath: `/${r.path_with_namespace}/edit`,
    archived: r.archived,
    isSelfArchived: r.archived,
    topics: r.tag_list,
    forksCount: r.forks_count,
    starCount: r.star_count,
    visibility: r.visibility.toUpperCase(),
    openMergeRequestsCount: r.merge_requests_enabled ? 0 : null,
    openIssuesCount: r.open_issues_count,
    createdAt: r.created_at,
    lastActivityAt: r.last_activity_at,
    issuesAccessLevel: { stringValue: r.issues_enabled ? 'ENABLED' : 'DISABLED' },
    mergeRequestsAccessLevel: { stringValue: r.merge_requests_enabled ? 'ENABLED' : 'DISABLED' },
    forkingAccessLevel: { stringValue: 'ENABLED' },
    maxAccessLevel: { integerValue: level },
    userPermissions: { archiveProject: level >= 40, removeProject: level >= 50, viewEditPage: level >= 40 },
    isCatalogResource: false,
    exploreCatalogPath: null,
    isPublished: false,
    pipeline: null,
    markedForDeletion: false,
    isSelfDeletionInProgress: false,
    isSelfDeletionScheduled: false,
    permanentDeletionDate: null,
  };
}

/** alice: a personal project, Developer of acme (two projects, one archived), Maintainer of one of bob's projects. */
async function world(): Promise<{ alice: TestUser; bob: TestUser; acme: { id: number; fullPath: string } }> {
  const alice = await createUser(t, { username: 'alice' });
  const bob = await createUser(t, { username: 'bob' });
  const acme = await createGroup(t, { path: 'acme', name: 'Acme', visibility: 'private' });
  await addGroupMember(t, acme, alice, 30);
  await createProject(t, {
    namespace: acme,
    path: 'api',
    name: 'API',
    description: '**Fast** API <script>alert(1)</script>',
  });
  await createProject(t, { namespace: acme, path: 'old', name: 'Old', archived: true });
  await createProject(t, { namespace: { id: alice.namespaceId }, path: 'notes', name: 'Notes', visibility: 'public' });
  const tools = await createProject(t, { namespace: { id: bob.namespaceId }, path: 'tools', name: 'Tools' });
  await addProjectMember(t, tools, alice, 40);
  await createProject(t, { namespace: { id: bob.namespaceId }, path: 'hidden', name: 'Hidden' });
  return { alice, bob, acme };
}

describe("GitLab's project list documents", () => {
  it("Your work > Projects (projects.query): the caller's member projects with REST's values, GitLab's fields and paging", async () => {
    const { alice } = await world();
    // The Member tab: GitLab's frontend sends membership: true with the list's sort and page size.
    const vars = { membership: true, active: true, first: 2, sort: 'name_asc' };
    const first = (await data(YOUR_WORK, vars, alice.token)).projects;
    const second = (await data(YOUR_WORK, { ...vars, after: first.pageInfo.endCursor }, alice.token)).projects;
    const listed = await rest<RestProject[]>(
      '/projects?membership=true&archived=false&order_by=name&sort=asc',
      alice.token,
    );
    expect(first.count).toBe(listed.total);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect([...first.nodes, ...second.nodes]).toEqual(
      listed.body.map((r) => expect.objectContaining(expectedProject(r, alice))),
    );
    const api = first.nodes.find((n: { fullPath: string }) => n.fullPath === 'acme/api');
    expect(api.descriptionHtml).toBe('<p><strong>Fast</strong> API &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    // Inactive tab: the archived ones only.
    const inactive = (await data(YOUR_WORK, { active: false, membership: true, first: 20 }, alice.token)).projects;
    const archived = await rest<RestProject[]>('/projects?membership=true&archived=true', alice.token);
    expect(inactive.nodes.map((n: { id: string }) => n.id)).toEqual(archived.body.map((r) => gid(r.id)));
  });

  it('personal and starred projects (personal_projects, starred_projects) answer what REST lists for the caller', async () => {
    const { alice } = await world();
    const personal = (await data(PERSONAL, { first: 20 }, alice.token)).projects;
    const own = await rest<RestProject[]>(`/users/${alice.id}/projects`, alice.token);
    expect(personal.nodes).toEqual(own.body.map((r) => expect.objectContaining(expectedProject(r, alice))));
    const tools = (await rest<RestProject[]>('/projects?search=tools', alice.token)).body[0];
    await api(t, alice.token).post(`/api/v4/projects/${tools.id}/star`).expect(201);
    await api(t, alice.token).post(`/api/v4/projects/${own.body[0].id}/star`).expect(201);
    const starred = (await data(STARRED, { first: 20 }, alice.token)).currentUser.starredProjects;
    const stars = await rest<RestProject[]>(`/users/${alice.id}/starred_projects?order_by=name&sort=asc`, alice.token);
    expect(stars.body).toHaveLength(2);
    expect(starred.nodes).toEqual(stars.body.map((r) => expect.objectContaining(expectedProject(r, alice))));
  });

  it('the Your work tab counts (project_counts) are REST totals; nothing is contributed (no pushes, merge requests or issues here)', async () => {
    const { alice } = await world();
    const tools = (await rest<RestProject[]>('/projects?search=tools', alice.token)).body[0];
    await api(t, alice.token).post(`/api/v4/projects/${tools.id}/star`).expect(201);
    const counts = await data(COUNTS, {}, alice.token);
    expect(counts).toEqual({
      currentUser: {
        id: `gid://gitlab/User/${alice.id}`,
        contributed: { count: 0 },
        starred: { count: (await rest(`/users/${alice.id}/starred_projects`, alice.token)).total },
      },
      personal: { count: (await rest(`/users/${alice.id}/projects`, alice.token)).total },
      member: { count: (await rest('/projects?membership=true', alice.token)).total },
      inactive: { count: (await rest('/projects?archived=true', alice.token)).total },
    });
    expect(counts.member.count).toBe(4);
  });

  it("Admin > Projects (admin_projects, project_counts): every project with REST's statistics, for administrators only", async () => {
    const { alice } = await world();
    const vars = { first: 20, sort: 'id_desc', active: true };
    const page = (await data(ADMIN, vars, ROOT_TOKEN)).projects;
    const all = await rest<RestProject[]>('/projects?archived=false&order_by=id&sort=desc&statistics=true');
    expect(page.count).toBe(all.total);
    expect(page.nodes).toEqual(
      all.body.map((r) =>
        expect.objectContaining({
          ...expectedProject(r),
          statistics: { storageSize: r.statistics?.storage_size },
          userPermissions: expect.objectContaining({ adminAllResources: true }),
        }),
      ),
    );
    expect((await data(ADMIN, vars, alice.token)).projects).toBeNull();
    const counts = await data(ADMIN_COUNTS, { search: 'o' }, ROOT_TOKEN);
    expect(counts).toEqual({
      active: { count: (await rest('/projects?archived=false&search=o')).total },
      inactive: { count: (await rest('/projects?archived=true&search=o')).total },
    });
    // A language filter matches nothing: no repository, hence no detected language.
    expect((await data(ADMIN_COUNTS, { programmingLanguageName: 'ruby' }, ROOT_TOKEN)).active.count).toBe(0);
  });

  it("the token picker (get_projects) lists the caller's projects by id (GitLab's finder knows no UPDATED_ASC) and filters by ids", async () => {
    const { alice } = await world();
    const vars = { search: '', after: '', first: 20, ids: null };
    const picked = (await data(TOKEN_PICKER, vars, alice.token)).projects;
    const member = await rest<RestProject[]>('/projects?membership=true&order_by=id&sort=desc', alice.token);
    expect(picked.nodes).toEqual(
      member.body.map((r) => ({
        id: gid(r.id),
        name: r.name,
        nameWithNamespace: r.name_with_namespace,
        avatarUrl: null,
      })),
    );
    const one = (await data(TOKEN_PICKER, { ...vars, ids: [gid(member.body[1].id)] }, alice.token)).projects;
    expect(one.nodes.map((n: { id: string }) => n.id)).toEqual([gid(member.body[1].id)]);
    const bad = await runDocument(t.server, TOKEN_PICKER, { ...vars, ids: ['gid://gitlab/Group/1'] }, alice.token);
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('the project autocomplete (projects_autocomplete) searches namespaces too, with REST values', async () => {
    const { alice } = await world();
    const byPath = (await data(AUTOCOMPLETE, { search: 'acme/ap' }, alice.token)).projects.nodes;
    const api = (await rest<RestProject[]>('/projects?search=api', alice.token)).body[0];
    expect(byPath).toEqual([{ id: gid(api.id), name: api.name, fullPath: api.path_with_namespace, avatarUrl: null }]);
    // The group's name matches its projects; REST's search (project fields only) finds none of them.
    const byGroup = (await data(AUTOCOMPLETE, { search: 'Acme' }, alice.token)).projects.nodes;
    const inAcme = [
      ...(await rest<RestProject[]>('/groups/acme/projects?archived=false', alice.token)).body,
      ...(await rest<RestProject[]>('/groups/acme/projects?archived=true', alice.token)).body,
    ];
    expect(inAcme).toHaveLength(2);
    expect(byGroup.map((n: { id: string }) => n.id).sort()).toEqual(inAcme.map((r) => gid(r.id)).sort());
    expect((await rest('/projects?search=Acme', alice.token)).total).toBe(0);
  });
});

describe('statement counts of the list documents', () => {
  it('Admin > Projects and Your work > Projects cost the same statements for 2 projects as for 20 (no per-row query)', async () => {
    const g = await createGroup(t, { path: 'many', name: 'Many' });
    const owner = await createUser(t, { username: 'owner' });
    await addGroupMember(t, g, owner, 50);
    const counts = async () => ({
      admin: (await t.countQueries(() => data(ADMIN, { first: 20, sort: 'id_desc' }, ROOT_TOKEN))).count,
      mine: (await t.countQueries(() => data(YOUR_WORK, { membership: true, first: 20 }, owner.token))).count,
    });
    for (let i = 0; i < 2; i++) await createProject(t, { namespace: g, description: `*p${i}*` });
    await counts(); // the first request of a user warms its per-user caches
    const few = await counts();
    for (let i = 2; i < 20; i++) await createProject(t, { namespace: g, description: `*p${i}*` });
    expect(await counts()).toEqual(few);
  });

  it('User.starredProjects and User.groups are one page statement for every user of a list', async () => {
    const users = [await createUser(t), await createUser(t), await createUser(t)];
    const g = await createGroup(t, { path: 'shared', name: 'Shared' });
    for (const u of users) await addGroupMember(t, g, u, 40);
    const q = `{ users(first: 10) { nodes { username starredProjects { count nodes { id } } groups { count nodes { fullPath } } } } }`;
    // Loaded once per instance, not per row: whether any group has an avatar (the lists' avatar probe).
    await api(t, ROOT_TOKEN).graphql(q).expect(200);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q).expect(200));
    const more = [...users, await createUser(t), await createUser(t)];
    for (const u of more.slice(3)) await addGroupMember(t, g, u, 40);
    const two = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q).expect(200));
    expect(two.count).toBe(one.count);
    const nodes = (two.result.body.data.users.nodes as { username: string; groups: { count: number } }[]).filter((n) =>
      more.some((u) => u.username === n.username),
    );
    expect(nodes.map((n) => n.groups.count)).toEqual(more.map(() => 1));
  });
});

describe("GitLab's group list documents", () => {
  it('the subgroup picker (search_groups_where_user_can_create_subgroups): the groups REST offers as transfer locations', async () => {
    const { alice, acme } = await world();
    const lab = await createGroup(t, { path: 'lab', name: 'Lab' });
    const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: lab });
    await addGroupMember(t, lab, alice, 40);
    void sub;
    const groups = (await data(SUBGROUP_PICKER, { search: '' }, alice.token)).currentUser.groups.nodes;
    const notes = (await rest<RestProject[]>(`/users/${alice.id}/projects`, alice.token)).body[0];
    const locations = await rest<{ id: number; full_path: string }[]>(
      `/projects/${notes.id}/transfer_locations`,
      alice.token,
    );
    expect(groups.map((g: { fullPath: string }) => g.fullPath).sort()).toEqual(
      locations.body.map((g) => g.full_path).sort(),
    );
    expect(groups.map((g: { fullPath: string }) => g.fullPath)).not.toContain(acme.fullPath);
    const searched = (await data(SUBGROUP_PICKER, { search: 'sub' }, alice.token)).currentUser.groups.nodes;
    expect(searched).toEqual([{ id: `gid://gitlab/Group/${sub.id}`, fullPath: 'lab/sub' }]);
  });

  it('the group tab counts (admin and Your work group_counts) are REST totals; none is pending deletion', async () => {
    const { alice } = await world();
    await createGroup(t, { path: 'other', name: 'Other' });
    const admin = await data(ADMIN_GROUP_COUNTS, {}, ROOT_TOKEN);
    expect(admin).toEqual({
      active: { count: (await rest('/groups?all_available=true')).total },
      inactive: { count: 0 },
    });
    const mine = await data(GROUP_COUNTS, { search: '' }, alice.token);
    expect(mine).toEqual({ member: { count: (await rest('/groups', alice.token)).total }, inactive: { count: 0 } });
    expect(mine.member.count).toBe(1);
  });
});

describe("GitLab's environment form documents", () => {
  it("create and update (create_environment, update_environment) run with the variables GitLab's forms send, as REST shows", async () => {
    await world();
    const project = (await rest<RestProject[]>('/projects?search=api')).body[0];
    // new_environment.vue: the form's fields, the project's full path, no cluster agent (Kubernetes is not served).
    const created = (
      await data(
        CREATE_ENV,
        {
          input: {
            name: 'staging',
            description: '',
            externalUrl: 'https://staging.example.com',
            projectPath: project.path_with_namespace,
            clusterAgentId: null,
          },
        },
        ROOT_TOKEN,
      )
    ).environmentCreate;
    const envs = await rest<{ id: number; name: string; external_url: string }[]>(
      `/projects/${project.id}/environments`,
    );
    expect(envs.body.map((e) => [e.name, e.external_url])).toEqual([['staging', 'https://staging.example.com']]);
    const id = envs.body[0].id;
    expect(created).toEqual({
      environment: { id: `gid://gitlab/Environment/${id}`, path: `/acme/api/-/environments/${id}` },
      errors: [],
    });
    // edit_environment.vue: the environment's global id and the fields its query read back.
    const input = {
      id: created.environment.id,
      description: 'Pre-production',
      externalUrl: 'https://stage.example.com',
      kubernetesNamespace: null,
      fluxResourcePath: null,
    };
    const updated = (await data(UPDATE_ENV, { input }, ROOT_TOKEN)).environmentUpdate;
    expect(updated).toEqual(created);
    const one = await rest<{ name: string; external_url: string }>(`/projects/${project.id}/environments/${id}`);
    expect([one.body.name, one.body.external_url]).toEqual(['staging', 'https://stage.example.com']);
    const q = `{ project(fullPath: "acme/api") { environments { nodes { description } } } }`;
    expect((await api(t, ROOT_TOKEN).graphql(q)).body.data.project.environments.nodes).toEqual([
      { description: 'Pre-production' },
    ]);
    // A namespace needs a cluster agent, which cannot exist here: GitLab's model message, nothing written.
    const refused = (await data(UPDATE_ENV, { input: { ...input, kubernetesNamespace: 'prod' } }, ROOT_TOKEN))
      .environmentUpdate;
    expect(refused).toEqual({
      environment: null,
      errors: ['Kubernetes namespace cannot be set without a cluster agent'],
    });
  });

  it('a Reporter may not create one and an unknown environment id is no environment, as REST answers', async () => {
    const { alice } = await world();
    const tools = (await rest<RestProject[]>('/projects?search=tools', alice.token)).body[0];
    const reporter = await createUser(t, { username: 'rita' });
    await addProjectMember(t, { id: tools.id }, reporter, 20);
    const denied = await runDocument(
      t.server,
      CREATE_ENV,
      { input: { name: 'x', projectPath: tools.path_with_namespace } },
      reporter.token,
    );
    expect([denied.data?.environmentCreate, denied.errors?.[0].extensions?.code]).toEqual([null, 'FORBIDDEN']);
    await api(t, reporter.token).post(`/api/v4/projects/${tools.id}/environments`).send({ name: 'x' }).expect(403);
    const missing = await runDocument(
      t.server,
      UPDATE_ENV,
      { input: { id: 'gid://gitlab/Environment/4242', externalUrl: 'https://x.test' } },
      ROOT_TOKEN,
    );
    expect([missing.data?.environmentUpdate, missing.errors?.[0].extensions?.code]).toEqual([null, 'NOT_FOUND']);
  });
});

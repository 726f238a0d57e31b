import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

const GROUP_FIELDS =
  'id: databaseId name path description visibility lfsEnabled avatarUrl webUrl requestAccessEnabled fullName fullPath parentId';

describe('GraphQL parity with REST', () => {
  it('group(id) shows the same values as GET /groups/:id, with nested fields', async () => {
    const parent = await createGroup(t, { path: 'par', visibility: 'public' });
    const g = await createGroup(t, { path: 'kid', visibility: 'public', parent });
    const p = await createProject(t, { namespace: g, visibility: 'public', sizes: [7, 1, 2, 3] });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/groups/${g.id}`)).body;
    const gql = await api(t, ROOT_TOKEN).graphql(
      `query($id: ID!) { group(id: $id) { ${GROUP_FIELDS} parent { id: databaseId fullPath } statistics { storageSize }
        projects(first: 10) { nodes { id: databaseId pathWithNamespace runnersToken } pageInfo { hasNextPage } }
        subgroups { count } customAttributes { key } } }`,
      { id: 'par/kid' },
    );
    expect(gql.status).toBe(200);
    const d = gql.body.data.group;
    expect({
      id: d.id,
      name: d.name,
      path: d.path,
      description: d.description,
      visibility: d.visibility.toLowerCase(),
      lfs_enabled: d.lfsEnabled,
      avatar_url: d.avatarUrl,
      web_url: d.webUrl,
      request_access_enabled: d.requestAccessEnabled,
      full_name: d.fullName,
      full_path: d.fullPath,
      parent_id: d.parentId,
    }).toEqual({
      id: rest.id,
      name: rest.name,
      path: rest.path,
      description: rest.description,
      visibility: rest.visibility,
      lfs_enabled: rest.lfs_enabled,
      avatar_url: rest.avatar_url,
      web_url: rest.web_url,
      request_access_enabled: rest.request_access_enabled,
      full_name: rest.full_name,
      full_path: rest.full_path,
      parent_id: rest.parent_id,
    });
    expect(d.parent).toEqual({ id: parent.id, fullPath: 'par' });
    expect(d.statistics).toEqual({ storageSize: 7 });
    expect(d.projects).toEqual({
      nodes: [{ id: p.id, pathWithNamespace: 'par/kid/' + p.path, runnersToken: rest.projects[0].runners_token }],
      pageInfo: { hasNextPage: false },
    });
    expect(rest.projects.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect(d.customAttributes).toEqual([]);
  });

  it('groups(...) lists the same page as GET /groups with the same filters', async () => {
    for (const n of ['b', 'a', 'c']) await createGroup(t, { name: n, path: n, visibility: 'public' });
    const rest = await api(t).get('/api/v4/groups?sort=desc&per_page=2');
    const gql = await api(t).graphql(
      '{ groups(sort: "name_desc", first: 2) { count pageInfo { hasNextPage } nodes { id: databaseId name } } }',
    );
    expect(Number(rest.headers['x-total-pages'])).toBe(2);
    expect(gql.body.data.groups).toEqual({
      count: Number(rest.headers['x-total']),
      pageInfo: { hasNextPage: true },
      nodes: rest.body.map((g: { id: number; name: string }) => ({ id: g.id, name: g.name })),
    });
  });

  it('mutations go through the same services: groupCreate, groupUpdate, projectTransferToGroup, groupDelete', async () => {
    const created = await api(t, ROOT_TOKEN).graphql(
      'mutation { groupCreate(input: { name: "Via GQL", path: "via-gql", visibility: INTERNAL }) { group { id: databaseId fullPath visibility } errors } }',
    );
    expect(created.body.data.groupCreate).toMatchObject({
      group: { fullPath: 'via-gql', visibility: 'INTERNAL' },
      errors: [],
    });
    const id = created.body.data.groupCreate.group.id;
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${id}`)).body.visibility).toBe('internal');
    const updated = await api(t, ROOT_TOKEN).graphql(
      `mutation { groupUpdate(input: { id: "${id}", description: "changed" }) { group { description } errors } }`,
    );
    expect(updated.body.data.groupUpdate).toEqual({ group: { description: 'changed' }, errors: [] });
    const other = await createGroup(t);
    const p = await createProject(t, { namespace: other });
    const moved = await api(t, ROOT_TOKEN).graphql(
      `mutation { projectTransferToGroup(input: { id: "${id}", projectId: "${p.id}" }) { group { projects { nodes { id: databaseId } } } errors } }`,
    );
    expect(moved.body.data.projectTransferToGroup.group.projects.nodes).toEqual([{ id: p.id }]);
    const deleted = await api(t, ROOT_TOKEN).graphql(`mutation { groupDelete(input: { id: "${id}" }) { errors } }`);
    expect(deleted.body).toEqual({ data: { groupDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/groups/${id}`)).status).toBe(404);
  });

  it('users, tokens, projects and members are there too', async () => {
    const user = await api(t, ROOT_TOKEN).graphql(
      'mutation { userCreate(input: { email: "g@q.l", username: "gql", name: "G", password: "secret123" }) { user { id: databaseId username email } errors } }',
    );
    const uid = user.body.data.userCreate.user.id;
    const token = await api(t, ROOT_TOKEN).graphql(
      `mutation { impersonationTokenCreate(input: { userId: ${uid}, name: "t", scopes: ["api"] }) { impersonationToken { token active } errors } }`,
    );
    const plain = token.body.data.impersonationTokenCreate.impersonationToken.token;
    expect((await api(t, plain).graphql('{ currentUser { username } }')).body.data.currentUser.username).toBe('gql');
    const project = await api(t, plain).graphql(
      'mutation { projectCreate(input: { name: "From GQL" }) { project { id: databaseId pathWithNamespace namespace { kind } } errors } }',
    );
    expect(project.body.data.projectCreate.project).toMatchObject({
      pathWithNamespace: 'gql/from-gql',
      namespace: { kind: 'user' },
    });
    const members = await api(t, plain).graphql(
      `{ project(fullPath: "gql/from-gql") { projectMembers { nodes { user { username } accessLevel { integerValue } } } } }`,
    );
    expect(members.body.data.project.projectMembers.nodes).toEqual([
      { user: { username: 'gql' }, accessLevel: { integerValue: 40 } },
    ]);
  });
});

describe('GraphQL nested fields', () => {
  const NESTED = `{ groups(first: 50) { nodes { id: databaseId parent { id: databaseId } statistics { storageSize } customAttributes { key }
    projects(first: 10) { count nodes { id: databaseId namespace { id: databaseId } sharedWithGroups(limit: 5) { groupId } runnersToken } }
    groupMembers(first: 5) { count nodes { user { username } group { fullPath } } }
    subgroups(first: 5) { count nodes { id: databaseId fullPath } } } } }`;

  async function tree(n: number, start: number) {
    for (let i = start; i < start + n; i += 1) {
      const g = await createGroup(t, { path: `top-${i}`, visibility: 'public' });
      await createGroup(t, { path: `child-${i}`, parent: g, visibility: 'public' });
      await createProject(t, { namespace: g, visibility: 'public' });
    }
  }

  it('are batched: the same number of SQL statements for 1 and for 20 parent groups', async () => {
    await tree(1, 0);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(NESTED).expect(200));
    expect(one.result.body.errors).toBeUndefined();
    await tree(19, 1);
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(NESTED).expect(200));
    expect(twenty.result.body.data.groups.nodes).toHaveLength(40);
    expect(twenty.count).toBe(one.count);
  });

  it("load a list's relations only when the selection asks for them, and answer the same either way", async () => {
    await tree(3, 0);
    const bare = await t.countQueries(() =>
      api(t, ROOT_TOKEN).graphql('{ projects { nodes { id: databaseId } } }').expect(200),
    );
    const viaFragment = `{ projects { nodes { ...P } } } fragment P on Project { id: databaseId pathWithNamespace sharedWithGroups { groupId } }`;
    const full = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(viaFragment).expect(200));
    expect(full.count).toBe(bare.count + 2); // one namespace batch, one shares batch
    const nodes = full.result.body.data.projects.nodes as {
      id: number;
      pathWithNamespace: string;
      sharedWithGroups: unknown[];
    }[];
    const rest = await api(t, ROOT_TOKEN).get('/api/v4/projects').expect(200);
    expect(nodes.map((n) => [n.id, n.pathWithNamespace, n.sharedWithGroups])).toEqual(
      rest.body.map((p: { id: number; path_with_namespace: string }) => [p.id, p.path_with_namespace, []]),
    );
  });

  it("a group's projects fetch only the columns their selection reads, and answer every field as project(id) does", async () => {
    await tree(2, 0);
    const other = await createGroup(t, { path: 'other', name: 'Other', visibility: 'public' });
    const shared = await createProject(t, {
      namespace: await createGroup(t, { path: 'top-x', visibility: 'public' }),
      visibility: 'public',
    });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${shared.id}/share`)
      .send({ group_id: other.id, group_access: 30 })
      .expect(201);
    const narrow =
      '{ groups { nodes { id: databaseId projects(first: 20) { nodes { id: databaseId name pathWithNamespace visibility sharedWithGroups(limit: 5) { groupId } } } } } }';
    const { result, sql } = await t.captureQueries(() => api(t, ROOT_TOKEN).graphql(narrow).expect(200));
    expect(result.body.errors).toBeUndefined();
    const listed = sql.filter((s) => /from projects p/.test(s));
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toContain('p.*');
    expect(listed[0]).toContain('p."visibility_level"');
    // `edges { node }` reads the same way; with `nodes` next to it, the union of both selections' columns.
    const both =
      '{ groups { nodes { projects(first: 20) { nodes { id: databaseId name } edges { cursor node { visibility } } } } } }';
    const union = (await t.captureQueries(() => api(t, ROOT_TOKEN).graphql(both).expect(200))).sql.filter((s) =>
      /from projects p/.test(s),
    );
    expect(union).toHaveLength(1);
    expect(union[0]).not.toContain('p.*');
    expect(union[0]).toContain('p."name"');
    expect(union[0]).toContain('p."visibility_level"');
    // The listed groups are the projects' namespaces: no second read of them.
    expect(sql.filter((s) => /from "?namespaces"? where "?id"? = any/.test(s))).toEqual([]);
    // Every field of Project (schema.graphql), each alone (so each field's own @Reads columns are what is
    // fetched), through the nested list and through project(id).
    const every = [
      'id',
      'databaseId',
      'name',
      'path',
      'description',
      'defaultBranch',
      'tagList',
      'archived',
      'visibility',
      'issuesEnabled',
      'mergeRequestsEnabled',
      'wikiEnabled',
      'jobsEnabled',
      'snippetsEnabled',
      'containerRegistryEnabled',
      'sharedRunnersEnabled',
      'publicJobs',
      'requestAccessEnabled',
      'creatorId',
      'starCount',
      'forksCount',
      'openIssuesCount',
      'createdAt',
      'updatedAt',
      'lastActivityAt',
      'avatarUrl',
      'namespace { id fullPath }',
      'nameWithNamespace',
      'pathWithNamespace',
      'webUrl',
      'httpUrlToRepo',
      'sshUrlToRepo',
      'sharedWithGroups { groupId groupName groupFullPath groupAccessLevel expiresAt }',
      'runnersToken',
      'public',
    ];
    const byId = new Map<number, Record<string, unknown>>();
    const ids = (
      await api(t, ROOT_TOKEN).graphql('{ groups(search: "top-") { nodes { projects { nodes { id: databaseId } } } } }')
    ).body.data.groups.nodes.flatMap((g: { projects: { nodes: { id: number }[] } }) =>
      g.projects.nodes.map((p) => p.id),
    );
    expect(ids).toHaveLength(3);
    for (const id of ids)
      byId.set(
        id,
        (await api(t, ROOT_TOKEN).graphql(`{ project(id: "${id}") { ${every.join(' ')} } }`)).body.data.project,
      );
    for (const field of every) {
      const name = field.split(' ')[0];
      const res = await api(t, ROOT_TOKEN).graphql(
        `{ groups(search: "top-", first: 5) { nodes { projects(first: 10) { nodes { databaseId ${field} } } } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      const projects = res.body.data.groups.nodes.flatMap(
        (g: { projects: { nodes: Record<string, unknown>[] } }) => g.projects.nodes,
      );
      expect(projects.map((p: Record<string, unknown>) => [p.databaseId, p[name]])).toEqual(
        ids.map((id: number) => [id, byId.get(id)![name]]),
      );
    }
    const projects = [...byId.values()];
    expect(projects.find((p) => p.databaseId === shared.id)?.sharedWithGroups).toEqual([
      { groupId: other.id, groupName: 'Other', groupFullPath: 'other', groupAccessLevel: 30, expiresAt: null },
    ]);
  });

  it("group(fullPath) { projects(first: 10) { nodes { fullPath } pageInfo { hasNextPage } } } pages the group's projects, as GitLab's", async () => {
    const g = await createGroup(t, { path: 'many', visibility: 'public' });
    const sub = await createGroup(t, { path: 'sub', parent: g, visibility: 'public' });
    for (let i = 0; i < 12; i += 1) await createProject(t, { namespace: g, path: `p${i}`, visibility: 'public' });
    await createProject(t, { namespace: sub, path: 'below', visibility: 'public' });
    type PageInfo = { hasNextPage: boolean; endCursor: string };
    const page = async (after?: string) => {
      const res = await api(t).graphql(
        `query($after: String) { group(fullPath: "many") { projects(first: 10, after: $after) { nodes { fullPath } pageInfo { hasNextPage endCursor } } } }`,
        { after: after ?? null },
      );
      expect(res.body.errors).toBeUndefined();
      return res.body.data.group.projects as { nodes: { fullPath: string }[]; pageInfo: PageInfo };
    };
    const first = await page();
    expect(first.nodes).toHaveLength(10);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page(first.pageInfo.endCursor);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const paths = [...first.nodes, ...second.nodes].map((n) => n.fullPath);
    // The group's own projects (a subgroup's only with includeSubgroups), as REST's GET /groups/:id/projects.
    const rest = await api(t).get(`/api/v4/groups/${g.id}/projects?per_page=100`).expect(200);
    expect(paths.sort()).toEqual(rest.body.map((p: { path_with_namespace: string }) => p.path_with_namespace).sort());
    expect(paths).toHaveLength(12);
  });

  it('subgroups match GET /groups/:id/subgroups, through the nested field', async () => {
    const parent = await createGroup(t, { path: 'p', visibility: 'public' });
    for (const n of ['c', 'a', 'b']) await createGroup(t, { path: n, name: n, parent, visibility: 'public' });
    const u = await createUser(t);
    const rest = await api(t, u.token).get(
      `/api/v4/groups/${parent.id}/subgroups?all_available=true&per_page=2&page=2`,
    );
    // REST's page 2 of 2 is GraphQL's page after the first page's endCursor.
    type Page = { count: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: { id: number }[] };
    const page = async (list: (args: string) => string, pick: (data: { group: { subgroups: Page } }) => Page) => {
      const first = pick((await api(t, u.token).graphql(list('first: 2')).expect(200)).body.data);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = pick(
        (
          await api(t, u.token)
            .graphql(list(`first: 2, after: "${first.pageInfo.endCursor}"`))
            .expect(200)
        ).body.data,
      );
      return { count: second.count, nodes: second.nodes };
    };
    const nested = await page(
      (args) =>
        `{ group(id: "p") { subgroups(allAvailable: true, ${args}) { count pageInfo { hasNextPage endCursor } nodes { id: databaseId } } } }`,
      (d) => d.group.subgroups,
    );
    const expected = {
      count: Number(rest.headers['x-total']),
      nodes: rest.body.map((g: { id: number }) => ({ id: g.id })),
    };
    expect(expected.nodes).toHaveLength(1);
    expect(nested).toEqual(expected);
    // docs/gitlab-compatibility.md, "Groups": a non-member of a public parent sees no subgroups without all_available
    // on REST; GraphQL lists every visible group by default (GitLab's GroupsFinder), and allAvailable: false is REST's.
    const sub = async (args: string) =>
      (await api(t, u.token).graphql(`{ group(id: "p") { subgroups${args} { count } } }`)).body.data.group.subgroups
        .count;
    expect(await sub('')).toBe(3);
    expect(await sub('(allAvailable: false)')).toBe(0);
    expect((await api(t, u.token).get(`/api/v4/groups/${parent.id}/subgroups`)).body).toEqual([]);
  });

  it('Group.projects(includeArchived: false) matches GET /groups/:id/projects', async () => {
    const g = await createGroup(t, { path: 'gp', visibility: 'public' });
    await createProject(t, { namespace: g, visibility: 'public', name: 'One' });
    await createProject(t, { namespace: g, visibility: 'public', name: 'Two', archived: true });
    const rest = await api(t).get(`/api/v4/groups/${g.id}/projects?order_by=name&sort=asc`);
    const gql = await api(t).graphql(
      '{ group(fullPath: "gp") { projects(includeArchived: false) { count nodes { id: databaseId name } } } }',
    );
    expect(gql.body.data.group.projects).toEqual({
      count: 1,
      nodes: rest.body.map((p: { id: number; name: string }) => ({ id: p.id, name: p.name })),
    });
  });
});

describe('GraphQL errors', () => {
  it('keep HTTP 200 and carry extensions.code, without stack traces', async () => {
    const g = await createGroup(t);
    const u = await createUser(t);
    // A root lookup of a group the caller may not see is null without an error (GitLab's convention) ...
    const hidden = await api(t, u.token).graphql(`{ group(id: "${g.id}") { id: databaseId } }`);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ data: { group: null } });
    // ... while a mutation on it is a top-level NOT_FOUND error.
    const notFound = await api(t, u.token).graphql(
      `mutation { groupUpdate(input: { id: "${g.id}", description: "x" }) { group { id } errors } }`,
    );
    expect(notFound.status).toBe(200);
    expect(notFound.body.errors[0]).toMatchObject({
      message: '404 Group Not Found',
      extensions: { code: 'NOT_FOUND' },
    });
    expect(JSON.stringify(notFound.body)).not.toContain('stacktrace');
    const anon = await api(t).graphql(
      'mutation { groupCreate(input: { name: "x", path: "x" }) { group { id: databaseId } errors } }',
    );
    expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    await addGroupMember(t, g, u, 40);
    const forbidden = await api(t, u.token).graphql(`mutation { groupDelete(input: { id: "${g.id}" }) { errors } }`);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const invalid = await api(t, ROOT_TOKEN).graphql(
      'mutation { groupCreate(input: { name: "x", path: "-x" }) { group { id: databaseId } errors } }',
    );
    // Invalid input is a validation message in the payload's errors (GitLab's mutations), not a failed request.
    expect(invalid.body.errors).toBeUndefined();
    expect(invalid.body.data.groupCreate).toEqual({ group: null, errors: [expect.stringMatching(/^Path /)] });
    const badToken = await api(t, 'nope').graphql('{ groups { count } }');
    expect(badToken.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('lets GraphiQL’s introspection query through the limits', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const res = await api(t).graphql(getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('refuses queries beyond the depth and complexity limits', async () => {
    const deep =
      '{ groups { nodes { parent { parent { parent { parent { parent { parent { parent { parent { parent { id: databaseId } } } } } } } } } } } }';
    const res = await api(t).graphql(deep);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/depth/);
    const wide = `{ groups(first: 100) { nodes { projects(first: 100) { nodes { ${Array.from({ length: 30 }, (_x, i) => `f${i}: name`).join(' ')} } } } } }`;
    const complex = await api(t).graphql(wide);
    expect(complex.body.errors[0].message).toMatch(/complexity/);
  });
});

describe('currentUser', () => {
  it('is null for an anonymous caller on GraphQL, with no error; REST GET /user stays 401', async () => {
    const res = await api(t).graphql('{ currentUser { username } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { currentUser: null } });
    expect((await api(t).get('/api/v4/user').expect(401)).body).toEqual({ message: '401 Unauthorized' });
    expect(
      (await api(t, 'not-a-valid-token-0123456').graphql('{ currentUser { username } }')).body.errors[0].extensions
        .code,
    ).toBe('UNAUTHENTICATED');
    expect((await api(t, ROOT_TOKEN).graphql('{ currentUser { username } }')).body).toEqual({
      data: { currentUser: { username: 'root' } },
    });
  });
});

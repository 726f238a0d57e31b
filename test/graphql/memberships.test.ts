import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { createJob, createRunner } from '../runners/runner-factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

const t = useTestApp();

/** Memberships with their own id, user, accessLevel object; member lists with GitLab's DIRECT/INHERITED relations. */
describe('GraphQL memberships', () => {
  async function acme() {
    const top = await createGroup(t, { path: 'acme', visibility: 'private' });
    const sub = await createGroup(t, { path: 'platform', parent: top, visibility: 'private' });
    const project = await createProject(t, { namespace: sub, path: 'api', visibility: 'private' });
    const alice = await createUser(t, { username: 'alice' });
    const bob = await createUser(t, { username: 'bob' });
    const carol = await createUser(t, { username: 'carol' });
    await addGroupMember(t, top, alice, 50);
    await addGroupMember(t, top, bob, 20);
    await addGroupMember(t, sub, bob, 30);
    await addProjectMember(t, project, carol, 10);
    await addGroupMember(t, top, carol, 30);
    return { top, sub, project, alice, bob, carol };
  }

  // Links compared by path or name: other object types' ids are global ids (test/graphql/global-ids.test.ts).
  const MEMBER =
    'id databaseId userId accessLevel { integerValue stringValue humanAccess } user { username } group { fullPath } project { path } expiresAt createdAt';

  it('bob as Reporter of acme and Developer of acme/platform: two memberships with their own ids and levels in one query', async () => {
    const { alice, bob } = await acme();
    const res = await api(t, alice.token).graphql(`{
      a: group(fullPath: "acme") { groupMembers(relations: [DIRECT], search: "bob") { nodes { ${MEMBER} } } }
      b: group(fullPath: "acme/platform") { groupMembers(relations: [DIRECT], search: "bob") { nodes { ${MEMBER} } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    const [a] = res.body.data.a.groupMembers.nodes;
    const [b] = res.body.data.b.groupMembers.nodes;
    expect(a).toMatchObject({
      userId: bob.id,
      accessLevel: { integerValue: 20, stringValue: 'REPORTER', humanAccess: 'Reporter' },
      user: { username: 'bob' },
      group: { fullPath: 'acme' },
      project: null,
    });
    expect(b).toMatchObject({
      userId: bob.id,
      accessLevel: { integerValue: 30, stringValue: 'DEVELOPER' },
      user: { username: 'bob' },
      group: { fullPath: 'acme/platform' },
    });
    expect(a.id).toMatch(/^gid:\/\/gitlab\/GroupMember\/\d+$/);
    // What Apollo Client's normalized cache keys them by (`${__typename}:${id}`): two entries, not one.
    const cacheKey = (m: { id: string }) => `Member:${m.id}`;
    expect(cacheKey(a)).not.toEqual(cacheKey(b));
    expect(a.id).not.toEqual(String(bob.id));
  });

  it('REST keeps id = user id and access_level as an integer', async () => {
    const { alice, bob } = await acme();
    const res = await api(t, alice.token).get('/api/v4/groups/acme%2Fplatform/members');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: bob.id, username: 'bob', access_level: 30 })]);
    expect(Object.keys(res.body[0])).toEqual([
      'id',
      'name',
      'username',
      'state',
      'avatar_url',
      'web_url',
      'access_level',
      'expires_at',
    ]);
  });

  it("group members: GitLab's default is DIRECT and INHERITED, once per user with the highest level; each relation alone", async () => {
    const { alice, bob } = await acme();
    const q = (rel: string) =>
      api(t, alice.token).graphql(
        `{ group(id: "acme/platform") { groupMembers${rel} { count nodes { username accessLevel { integerValue } group { fullPath } } } } }`,
      );
    // Whether an entry is inherited is where its membership lives (`group`), not a field that depends on the list.
    const direct = (await q('(relations: [DIRECT])')).body.data.group.groupMembers;
    expect(direct.nodes).toEqual([
      { username: 'bob', accessLevel: { integerValue: 30 }, group: { fullPath: 'acme/platform' } },
    ]);
    const inherited = (await q('(relations: [INHERITED])')).body.data.group.groupMembers;
    expect(inherited.count).toBe(3);
    const byName = Object.fromEntries(inherited.nodes.map((n: { username: string }) => [n.username, n]));
    expect(byName.alice).toEqual({ username: 'alice', accessLevel: { integerValue: 50 }, group: { fullPath: 'acme' } });
    // bob has Reporter in acme: only inherited rows are asked for
    expect(byName.bob).toEqual({ username: 'bob', accessLevel: { integerValue: 20 }, group: { fullPath: 'acme' } });
    const both = (await q('(relations: [DIRECT, INHERITED])')).body.data.group.groupMembers;
    expect(both.count).toBe(3);
    const bobBoth = both.nodes.find((n: { username: string }) => n.username === 'bob');
    expect(bobBoth).toEqual({
      username: 'bob',
      accessLevel: { integerValue: 30 },
      group: { fullPath: 'acme/platform' },
    });
    // Omitted, null and [] are GitLab's default: the same list as [DIRECT, INHERITED].
    for (const rel of ['', '(relations: null)', '(relations: [])']) {
      expect((await q(rel)).body.data.group.groupMembers).toEqual(both);
    }
    expect(bob.id).toBeGreaterThan(0);
  });

  it('a membership shown by two lists is the same object in both: one gid, the same fields (a normalized cache keeps one entry)', async () => {
    const { alice, bob } = await acme();
    const FIELDS = `nodes { ${MEMBER} }`;
    const res = await api(t, bob.token).graphql(`{
      top: group(fullPath: "acme") { groupMembers { ${FIELDS} } }
      sub: group(fullPath: "acme/platform") { groupMembers { ${FIELDS} } }
      project(fullPath: "acme/platform/api") { projectMembers { ${FIELDS} } }
    }`);
    expect(res.body.errors).toBeUndefined();
    type M = { userId: number; id: string };
    const aliceIn = (list: { nodes: M[] }) => list.nodes.find((n) => n.userId === alice.id);
    const direct = aliceIn(res.body.data.top.groupMembers);
    expect(direct).toMatchObject({ group: { fullPath: 'acme' }, accessLevel: { stringValue: 'OWNER' } });
    // acme's Owner membership, listed directly by acme and inherited by its subgroup and that subgroup's project.
    expect(aliceIn(res.body.data.sub.groupMembers)).toEqual(direct);
    expect(aliceIn(res.body.data.project.projectMembers)).toEqual(direct);
    const node = await api(t, bob.token).graphql(`query($id: ID!) { node(id: $id) { ... on Member { ${MEMBER} } } }`, {
      id: direct!.id,
    });
    expect(node.body.data.node).toEqual(direct);
  });

  it("project(fullPath) { projectMembers } lists the members inherited from the project's groups by default, as GitLab's", async () => {
    const { alice } = await acme();
    const res = await api(t, alice.token).graphql(
      '{ project(fullPath: "acme/platform/api") { projectMembers { nodes { user { username } } } } }',
    );
    expect(res.body.errors).toBeUndefined();
    const names = res.body.data.project.projectMembers.nodes.map(
      (n: { user: { username: string } }) => n.user.username,
    );
    // carol is the project's Guest (and Developer of acme: the higher level wins, one entry); alice and bob are inherited.
    expect(names.sort()).toEqual(['alice', 'bob', 'carol']);
    // REST's member list stays the project's own members (GitLab 10.3's GET /projects/:id/members).
    const rest = await api(t, alice.token).get('/api/v4/projects/acme%2Fplatform%2Fapi/members').expect(200);
    expect(rest.body.map((m: { username: string }) => m.username)).toEqual(['carol']);
  });

  it("project members: INHERITED are the memberships of its group and that group's ancestors", async () => {
    const { alice, project } = await acme();
    const res = await api(t, alice.token).graphql(`{ project(id: "${project.id}") {
      d: projectMembers(relations: [DIRECT]) { nodes { username accessLevel { stringValue } project { path } group { fullPath } } }
      all: projectMembers(first: 2) { count pageInfo { hasNextPage endCursor } nodes { username } }
      i: projectMembers(relations: [INHERITED]) { nodes { id username accessLevel { stringValue } group { fullPath } project { path } } }
    } }`);
    expect(res.body.errors).toBeUndefined();
    const p = res.body.data.project;
    expect(p.d.nodes).toEqual([
      {
        username: 'carol',
        accessLevel: { stringValue: 'GUEST' },
        project: { path: 'api' },
        group: null,
      },
    ]);
    expect(p.all.count).toBe(3);
    expect(p.all.pageInfo.hasNextPage).toBe(true);
    const next = await api(t, alice.token).graphql(
      `{ project(id: "${project.id}") { projectMembers(first: 2, after: "${p.all.pageInfo.endCursor}") { pageInfo { hasNextPage } nodes { username } } } }`,
    );
    expect(next.body.errors).toBeUndefined();
    const all2 = next.body.data.project.projectMembers;
    expect(all2.pageInfo.hasNextPage).toBe(false);
    const all = [...p.all.nodes, ...all2.nodes].map((n: { username: string }) => n.username).sort();
    expect(all).toEqual(['alice', 'bob', 'carol']);
    const inh = Object.fromEntries(p.i.nodes.map((n: { username: string }) => [n.username, n]));
    expect(inh.bob).toMatchObject({
      accessLevel: { stringValue: 'DEVELOPER' },
      group: { fullPath: 'acme/platform' },
      project: null,
    });
    expect(inh.carol).toMatchObject({
      accessLevel: { stringValue: 'DEVELOPER' },
      group: { fullPath: 'acme' },
      project: null,
    });
    expect(inh.alice.accessLevel.stringValue).toBe('OWNER');
    expect(inh.alice.id).toMatch(/^gid:\/\/gitlab\/GroupMember\//);
  });

  it('the same visibility as the member lists: a stranger cannot reach them; the user link and a hidden source', async () => {
    const { project } = await acme();
    const stranger = await createUser(t);
    const res = await api(t, stranger.token).graphql(`{ project(id: "${project.id}") { id } }`);
    expect(res.body.data?.project ?? null).toBeNull();
    const hidden = await api(t, stranger.token).graphql('{ group(id: "acme") { groupMembers { count } } }');
    expect(hidden.body.data?.group ?? null).toBeNull();
    // A public group under a private one: its inherited membership shows, the private group is null.
    const secret = await createGroup(t, { path: 'secret', visibility: 'private' });
    const open = await createGroup(t, { path: 'open', parent: secret, visibility: 'public' });
    const erin = await createUser(t, { username: 'erin' });
    await addGroupMember(t, secret, erin, 40);
    const seen = await api(t, stranger.token).graphql(
      '{ group(id: "secret/open") { groupMembers(relations: [INHERITED]) { nodes { username group { fullPath } user { username } } } } }',
    );
    expect(seen.body.errors).toBeUndefined();
    expect(seen.body.data.group.groupMembers.nodes).toEqual([
      { username: 'erin', group: null, user: { username: 'erin' } },
    ]);
    const admin = await api(t, ROOT_TOKEN).graphql(
      '{ group(id: "secret/open") { groupMembers(relations: [INHERITED]) { nodes { group { fullPath } } } } }',
    );
    expect(admin.body.data.group.groupMembers.nodes).toEqual([{ group: { fullPath: 'secret' } }]);
    expect(open.id).toBeGreaterThan(0);
  });

  it('member lists of many groups and their users are batched (no query per group or member)', async () => {
    const { alice } = await acme();
    for (let i = 0; i < 6; i += 1) {
      const g = await createGroup(t, { path: `extra-${i}`, visibility: 'public' });
      for (let j = 0; j < 3; j += 1) await addGroupMember(t, g, await createUser(t), 30);
    }
    const query = `{ groups(allAvailable: true, first: 50) { nodes { groupMembers(relations: [DIRECT, INHERITED]) { count nodes { id user { username } group { id } } } } } }`;
    // Loaded once per instance, not per row: whether any group has an avatar (the list's avatar probe).
    await api(t, alice.token).graphql(query);
    const { result, count } = await t.countQueries(() => api(t, alice.token).graphql(query));
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.groups.nodes.length).toBe(8);
    const small = await t.countQueries(() => api(t, alice.token).graphql(query.replace('first: 50', 'first: 2')));
    expect(count).toBe(small.count);
  });

  it('equal member-list arguments written differently share one statement (order, null or omitted, default relations)', async () => {
    await acme();
    const sel = '{ count nodes { username } }';
    const count = async (fields: string) => {
      const { result, count: n } = await t.countQueries(() =>
        api(t, ROOT_TOKEN).graphql(`{ groups(allAvailable: true) { nodes { ${fields} } } }`),
      );
      expect(result.body.errors).toBeUndefined();
      return n;
    };
    const one = await count(`a: groupMembers(first: 2, search: "o") ${sel}`);
    expect(
      await count(
        `a: groupMembers(first: 2, search: "o") ${sel} b: groupMembers(search: "o", first: 2, relations: [INHERITED, DIRECT]) ${sel}`,
      ),
    ).toBe(one);
    const plain = await count(`a: groupMembers(first: 2) ${sel}`);
    expect(
      await count(
        `a: groupMembers(first: 2) ${sel} b: groupMembers(first: 2, search: null) ${sel} c: groupMembers(first: 2, relations: [DIRECT, INHERITED, DIRECT]) ${sel} d: groupMembers(first: 2, relations: []) ${sel} e: groupMembers(first: 2, relations: null) ${sel}`,
      ),
    ).toBe(plain);
    // a different list is a round trip of its own: its page, and its count (Relay's count is read on its own statement)
    expect(await count(`a: groupMembers(first: 2) ${sel} b: groupMembers(first: 3) ${sel}`)).toBe(plain + 2);
    expect(await count(`a: groupMembers(first: 2) ${sel} b: groupMembers(first: 2, relations: [DIRECT]) ${sel}`)).toBe(
      plain + 2,
    );
    expect(
      await count(`a: groupMembers(first: 2) { nodes { username } } b: groupMembers(first: 3) { nodes { username } }`),
    ).toBe((await count(`a: groupMembers(first: 2) { nodes { username } }`)) + 1);
  });

  it('node(id) / nodes(ids) answer memberships by their GroupMember / ProjectMember gid, as visible as the member lists', async () => {
    const { alice } = await acme();
    const lists = await api(t, alice.token).graphql(`{
      g: group(fullPath: "acme/platform") { groupMembers(relations: [DIRECT]) { nodes { id databaseId } } }
      p: project(fullPath: "acme/platform/api") { projectMembers(relations: [DIRECT]) { nodes { id databaseId } } }
    }`);
    expect(lists.body.errors).toBeUndefined();
    const [bobSub] = lists.body.data.g.groupMembers.nodes;
    const [carolP] = lists.body.data.p.projectMembers.nodes;
    expect(bobSub.id).toBe(`gid://gitlab/GroupMember/${bobSub.databaseId}`);
    expect(carolP.id).toBe(`gid://gitlab/ProjectMember/${carolP.databaseId}`);
    const FIELDS =
      '__typename id ... on Member { databaseId accessLevel { integerValue } user { username } group { fullPath } project { path } }';
    const one = await api(t, alice.token).graphql(`query($id: ID!) { node(id: $id) { ${FIELDS} } }`, { id: bobSub.id });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data.node).toEqual({
      __typename: 'Member',
      id: bobSub.id,
      databaseId: bobSub.databaseId,
      accessLevel: { integerValue: 30 },
      user: { username: 'bob' },
      group: { fullPath: 'acme/platform' },
      project: null,
    });
    // Both classes in one call, in the order asked; a row id of the other table under the wrong class is another (missing) membership.
    const ids = [carolP.id, bobSub.id, `gid://gitlab/ProjectMember/${2 ** 31 - 1}`];
    const many = await api(t, alice.token).graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { ${FIELDS} } }`, { ids });
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.nodes).toEqual([
      {
        __typename: 'Member',
        id: carolP.id,
        databaseId: carolP.databaseId,
        accessLevel: { integerValue: 10 },
        user: { username: 'carol' },
        group: null,
        project: { path: 'api' },
      },
      expect.objectContaining({ id: bobSub.id, accessLevel: { integerValue: 30 } }),
      null,
    ]);
    // An outsider may not list the private groups' or project's members: null, no error.
    const stranger = await createUser(t);
    const hidden = await api(t, stranger.token).graphql(
      `query($id: ID!, $ids: [ID!]!) { node(id: $id) { id } nodes(ids: $ids) { id } }`,
      { id: bobSub.id, ids: ids.slice(0, 2) },
    );
    expect(hidden.body.errors).toBeUndefined();
    expect(hidden.body.data).toEqual({ node: null, nodes: [null, null] });
    const anonymous = await api(t).graphql(`query($id: ID!) { node(id: $id) { id } }`, { id: carolP.id });
    expect(anonymous.body.data).toEqual({ node: null });
    // A public group's members are anyone's to list, and to look up.
    const open = await createGroup(t, { path: 'open', visibility: 'public' });
    await addGroupMember(t, open, alice, 50);
    const openIds = (await api(t).graphql('{ group(fullPath: "open") { groupMembers { nodes { id } } } }')).body.data
      .group.groupMembers.nodes;
    const seen = await api(t, stranger.token).graphql(
      `query($id: ID!) { node(id: $id) { ... on Member { user { username } group { fullPath } } } }`,
      { id: openIds[0].id },
    );
    expect(seen.body.data.node).toEqual({ user: { username: 'alice' }, group: { fullPath: 'open' } });
    // A malformed membership id is BAD_USER_INPUT.
    for (const id of ['gid://gitlab/GroupMember/bob', 'gid://gitlab/Member/1']) {
      const bad = await api(t, alice.token).graphql(`query($id: ID!) { node(id: $id) { id } }`, { id });
      expect(bad.body.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
        'BAD_USER_INPUT',
      ]);
    }
  });

  it('node lookups of memberships: one statement per class whatever the number of ids', async () => {
    const { alice, top } = await acme();
    const { body } = await api(t, alice.token).graphql(
      '{ group(fullPath: "acme") { groupMembers(relations: [DIRECT]) { nodes { id } } } }',
    );
    const gids: string[] = body.data.group.groupMembers.nodes.map((n: { id: string }) => n.id);
    expect(gids.length).toBe(3);
    const q = (ids: string[]) =>
      api(t, alice.token).graphql(
        'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Member { accessLevel { integerValue } group { fullPath } } } }',
        { ids },
      );
    const warm = await q(gids);
    expect(warm.body.data.nodes).toEqual(gids.map(() => expect.objectContaining({ group: { fullPath: 'acme' } })));
    const small = await t.countQueries(() => q(gids.slice(0, 1)));
    const big = await t.countQueries(() => q(gids));
    expect(big.count).toBe(small.count);
    expect(top.id).toBeGreaterThan(0);
  });

  it('bad relations are a 400 validation error', async () => {
    const { alice } = await acme();
    const res = await api(t, alice.token).graphql(
      '{ group(id: "acme") { groupMembers(relations: [SIDEWAYS]) { count } } }',
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

/** Object links a dashboard follows, batched, each checked like its own lookup. */
describe('GraphQL object links', () => {
  const sql = (q: string, p: unknown[] = []) => t.orm.em.getConnection().execute(q, p);

  it('project → group, creator, environments; hidden ones are null', async () => {
    const top = await createGroup(t, { path: 'top', visibility: 'private' });
    const pub = await createGroup(t, { path: 'pub', parent: top, visibility: 'public' });
    const owner = await createUser(t, { username: 'owner' });
    const reporter = await createUser(t, { username: 'rep' });
    const stranger = await createUser(t, { username: 'stranger' });
    await addGroupMember(t, pub, owner, 50);
    await addGroupMember(t, pub, reporter, 20);
    const p = await createProject(t, { namespace: pub, path: 'app', visibility: 'public' });
    const personal = await createProject(t, {
      namespace: { id: owner.namespaceId },
      path: 'mine',
      visibility: 'public',
    });
    await sql('update projects set creator_id = ? where id in (?, ?)', [owner.id, p.id, personal.id]);
    for (const name of ['production', 'staging', 'review'])
      await sql(`insert into environments (project_id, name, slug) values (?, ?, ?)`, [p.id, name, `${name}-x`]);
    const q = `{ project(id: "${p.id}") { group { fullPath parent { fullPath } } creator { username } environments(first: 2) { count nodes { name } } }
                 personal: project(id: "${personal.id}") { group { fullPath } namespace { kind } creator { username } } }`;
    const asReporter = await api(t, reporter.token).graphql(q);
    expect(asReporter.body.errors).toBeUndefined();
    // a member of a subgroup sees its ancestors (modules/access/visibility.ts)
    expect(asReporter.body.data.project).toEqual({
      group: { fullPath: 'top/pub', parent: { fullPath: 'top' } },
      creator: { username: 'owner' },
      environments: { count: 3, nodes: [{ name: 'production' }, { name: 'staging' }] },
    });
    expect(asReporter.body.data.personal).toEqual({
      group: null,
      namespace: { kind: 'user' },
      creator: { username: 'owner' },
    });
    // environments need Reporter, and the private parent group is hidden: null for a stranger, who still sees the public project and group
    const asStranger = await api(t, stranger.token).graphql(q);
    expect(asStranger.body.data.project).toEqual({
      group: { fullPath: 'top/pub', parent: null },
      creator: { username: 'owner' },
      environments: null,
    });
  });

  it('nested environments and members take the connection arguments; two pages of one list in one query stay apart', async () => {
    const top = await createGroup(t, { path: 'acme', visibility: 'private' });
    const sub = await createGroup(t, { path: 'platform', parent: top, visibility: 'private' });
    const alice = await createUser(t, { username: 'alice' });
    await addGroupMember(t, top, alice, 50);
    await addGroupMember(t, sub, await createUser(t, { username: 'bob' }), 30);
    const p = await createProject(t, {
      namespace: await createGroup(t, { path: 'envs', visibility: 'public' }),
      path: 'app',
      visibility: 'public',
    });
    for (const name of ['production', 'staging', 'review'])
      await sql(`insert into environments (project_id, name, slug) values (?, ?, ?)`, [p.id, name, `${name}-x`]);
    const envs = async (args: string) =>
      (
        await api(t, ROOT_TOKEN).graphql(
          `{ project(id: "${p.id}") { environments(${args}) { nodes { name } pageInfo { hasNextPage endCursor } } } }`,
        )
      ).body;
    const first = await envs('first: 1');
    expect(first.errors).toBeUndefined();
    expect(first.data.project.environments.nodes).toEqual([{ name: 'production' }]);
    expect(first.data.project.environments.pageInfo.hasNextPage).toBe(true);
    const next = await envs(`first: 2, after: "${first.data.project.environments.pageInfo.endCursor}"`);
    expect(next.data.project.environments.nodes).toEqual([{ name: 'staging' }, { name: 'review' }]);
    // Two aliases of the same member list with different cursors: each answers its own page (the batch key holds every argument).
    const q = (after?: string) =>
      `groupMembers(relations: [DIRECT, INHERITED], first: 1${after ? `, after: "${after}"` : ''}) { nodes { username } pageInfo { endCursor } }`;
    const one = await api(t, alice.token).graphql(`{ group(fullPath: "acme/platform") { ${q()} } }`);
    expect(one.body.errors).toBeUndefined();
    const cursor = one.body.data.group.groupMembers.pageInfo.endCursor as string;
    const both = await api(t, alice.token).graphql(
      `{ group(fullPath: "acme/platform") { a: ${q()} b: ${q(cursor)} } }`,
    );
    expect(both.body.errors).toBeUndefined();
    expect(both.body.data.group.a.nodes).toHaveLength(1);
    expect(both.body.data.group.b.nodes).toHaveLength(1);
    expect(both.body.data.group.b.nodes[0].username).not.toBe(both.body.data.group.a.nodes[0].username);
  });

  it('project links are batched: a page of 12 projects costs what a page of 2 does', async () => {
    const g = await createGroup(t, { path: 'many', visibility: 'public' });
    const owner = await createUser(t, { username: 'maker' });
    await addGroupMember(t, g, owner, 50);
    for (let i = 0; i < 12; i += 1) {
      const p = await createProject(t, { namespace: g, path: `p${i}`, visibility: 'public' });
      await sql('update projects set creator_id = ? where id = ?', [owner.id, p.id]);
      await sql('insert into environments (project_id, name, slug) values (?, ?, ?)', [
        p.id,
        'production',
        'production-x',
      ]);
      await addProjectMember(t, p, await createUser(t), 30);
    }
    const query = (
      n: number,
    ) => `{ group(fullPath: "many") { projects(first: ${n}) { nodes { group { fullPath parent { id } } creator { username } environments { count nodes { name } }
      projectMembers(relations: [DIRECT, INHERITED]) { count nodes { user { username } project { path } group { fullPath } } } } } } }`;
    // The first request also warms per-process state; both counted requests run after it.
    const first = await api(t, owner.token).graphql(query(20));
    expect(first.body.errors).toBeUndefined();
    const nodes = first.body.data.group.projects.nodes;
    expect(nodes.length).toBe(12);
    expect(nodes[0]).toMatchObject({
      group: { fullPath: 'many', parent: null },
      creator: { username: 'maker' },
      environments: { count: 1 },
      projectMembers: { count: 2 },
    });
    const small = await t.countQueries(() => api(t, owner.token).graphql(query(2)));
    const big = await t.countQueries(() => api(t, owner.token).graphql(query(20)));
    expect(big.count).toBe(small.count);
  });

  it('job → runner (null when the caller may not read the runner), runner → jobs', async () => {
    const g = await createGroup(t, { path: 'ci' });
    const p = await createProject(t, { namespace: g, path: 'svc' });
    const master = await createUser(t);
    await addGroupMember(t, g, master, 40);
    const specific = await createRunner(t, { projects: [p], description: 'mine' });
    const shared = await createRunner(t, { shared: true, description: 'shared' });
    const other = await createRunner(t, { description: 'other' });
    await createJob(t, { runner: specific, project: p });
    await createJob(t, { runner: shared, project: p });
    await createJob(t, { runner: other, project: p });
    const q = (id: number) => `{ runner(id: ${id}) { jobs { nodes { runner { description jobs { count } } } } } }`;
    const mine = await api(t, master.token).graphql(q(specific.id));
    expect(mine.body.errors).toBeUndefined();
    expect(mine.body.data.runner.jobs.nodes).toEqual([{ runner: { description: 'mine', jobs: { count: 1 } } }]);
    // An administrator reads every runner, so each job links to its own (jobs are only reachable through a runner the caller may read).
    const all = await api(t, ROOT_TOKEN).graphql(
      `{ a: runner(id: ${other.id}) { jobs { nodes { runner { description } } } } b: runner(id: ${shared.id}) { jobs { nodes { runner { description } } } } }`,
    );
    expect(all.body.data).toEqual({
      a: { jobs: { nodes: [{ runner: { description: 'other' } }] } },
      b: { jobs: { nodes: [{ runner: { description: 'shared' } }] } },
    });
  });

  it('project → jobs: newest first, status filter, cursor pages, batched across a project list, hidden with the project', async () => {
    const g = await createGroup(t, { path: 'ci', visibility: 'private' });
    const member = await createUser(t);
    const stranger = await createUser(t);
    await addGroupMember(t, g, member, 10);
    const projects = [];
    for (let i = 0; i < 6; i += 1)
      projects.push(await createProject(t, { namespace: g, path: `svc${i}`, visibility: 'private' }));
    const runner = await createRunner(t, { shared: true });
    for (const [i, status] of ['success', 'failed', 'success'].entries())
      await createJob(t, { runner, project: projects[0], status, name: `job-${i}` });
    await createJob(t, { runner, project: projects[5], name: 'other' });
    const q = (path: string, args: string) =>
      `{ project(fullPath: "${path}") { jobs(${args}) { count nodes { name status } pageInfo { hasNextPage endCursor } } } }`;
    const page = await api(t, member.token).graphql(q('ci/svc0', 'sort: DESC, first: 2'));
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.project.jobs).toMatchObject({
      count: 3,
      nodes: [
        { name: 'job-2', status: 'SUCCESS' },
        { name: 'job-1', status: 'FAILED' },
      ],
      pageInfo: { hasNextPage: true },
    });
    const next = await api(t, member.token).graphql(
      q('ci/svc0', `sort: DESC, first: 2, after: "${page.body.data.project.jobs.pageInfo.endCursor}"`),
    );
    expect(next.body.data.project.jobs.nodes).toEqual([{ name: 'job-0', status: 'SUCCESS' }]);
    const failed = await api(t, member.token).graphql(q('ci/svc0', 'status: FAILED'));
    expect(failed.body.data.project.jobs.nodes.map((j: { name: string }) => j.name)).toEqual(['job-1']);
    // A stranger does not see the private project, so neither its jobs.
    expect((await api(t, stranger.token).graphql(q('ci/svc0', 'first: 1'))).body.data.project).toBeNull();
    // One statement pair for the jobs of every project of a list, whatever their number.
    const list = (n: number) =>
      `{ group(fullPath: "ci") { projects(first: ${n}) { nodes { path jobs(first: 1) { count nodes { name } } } } } }`;
    await api(t, member.token).graphql(list(2)); // warm: per-instance caches (settings, access) filled before counting
    const two = await t.countQueries(() => api(t, member.token).graphql(list(2)));
    const six = await t.countQueries(() => api(t, member.token).graphql(list(6)));
    expect(six.result.body.errors).toBeUndefined();
    expect(six.result.body.data.group.projects.nodes.map((n: { jobs: { count: number } }) => n.jobs.count)).toEqual([
      3, 0, 0, 0, 0, 1,
    ]);
    expect(six.count).toBe(two.count);
  });

  it("project → jobs and node(job) follow GitLab's read_build: disabled jobs are null for everyone, non-public jobs for those below Reporter", async () => {
    const g = await createGroup(t, { path: 'ci-rules', visibility: 'public' });
    const p = await createProject(t, { namespace: g, path: 'app', visibility: 'public' });
    const guest = await createUser(t);
    const reporter = await createUser(t);
    await addProjectMember(t, p, guest, 10);
    await addProjectMember(t, p, reporter, 20);
    const runner = await createRunner(t, { shared: true });
    const job = await createJob(t, { runner, project: p, name: 'build' });
    const q = `{ project(fullPath: "ci-rules/app") { path jobs { nodes { name } } } node(id: "gid://gitlab/Ci::Build/${job.id}") { id } }`;
    const seen = async (token?: string) => {
      const body = (await api(t, token).graphql(q).expect(200)).body;
      expect(body.errors).toBeUndefined();
      return [
        body.data.project.jobs?.nodes.map((n: { name: string }) => n.name) ?? null,
        body.data.node ? 'node' : null,
      ];
    };
    expect(await seen()).toEqual([['build'], 'node']); // public project, public jobs
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}`).send({ public_jobs: false }).expect(200);
    expect(await seen()).toEqual([null, null]);
    expect(await seen(guest.token)).toEqual([null, null]);
    expect(await seen(reporter.token)).toEqual([['build'], 'node']);
    expect(await seen(ROOT_TOKEN)).toEqual([['build'], 'node']);
    await api(t, ROOT_TOKEN).put(`/api/v4/projects/${p.id}`).send({ jobs_enabled: false }).expect(200);
    expect(await seen(reporter.token)).toEqual([null, null]);
    expect(await seen(ROOT_TOKEN)).toEqual([null, null]);
  });

  it('pages domain → project, impersonation token → user, namespace → parent; hidden ones are null', async () => {
    const top = await createGroup(t, { path: 'web', visibility: 'private' });
    const sub = await createGroup(t, { path: 'sites', parent: top, visibility: 'private' });
    const p = await createProject(t, { namespace: sub, path: 'home' });
    await sql('insert into pages_domains (project_id, domain) values (?, ?)', [p.id, 'home.test']);
    const dev = await createUser(t, { username: 'dev' });
    await addGroupMember(t, sub, dev, 30);
    const domains = await api(t, ROOT_TOKEN).graphql(
      '{ pagesDomains { nodes { domain project { pathWithNamespace } } } }',
    );
    expect(domains.body.errors).toBeUndefined();
    expect(domains.body.data.pagesDomains.nodes).toEqual([
      { domain: 'home.test', project: { pathWithNamespace: 'web/sites/home' } },
    ]);
    const token = await api(t, ROOT_TOKEN).graphql(
      `mutation { impersonationTokenCreate(input: { userId: ${dev.id}, name: "t", scopes: ["api"] }) { impersonationToken { user { username } } errors } }`,
    );
    expect(token.body.data.impersonationTokenCreate).toEqual({
      impersonationToken: { user: { username: 'dev' } },
      errors: [],
    });
    const list = await api(t, ROOT_TOKEN).graphql(
      `{ user(id: ${dev.id}) { impersonationTokens { nodes { name user { username } } } } }`,
    );
    expect(list.body.data.user.impersonationTokens.nodes).toEqual([{ name: 't', user: { username: 'dev' } }]);
    // Only administrators see a user's impersonation tokens, the user themself included.
    const own = await api(t, dev.token).graphql(`{ user(id: ${dev.id}) { impersonationTokens { count } } }`);
    expect(own.body).toEqual({ data: { user: { impersonationTokens: null } } });
    const ns = (token: string) =>
      api(t, token).graphql(
        '{ namespace(fullPath: "web/sites") { fullPath parent { fullPath parent { fullPath } } } }',
      );
    expect((await ns(ROOT_TOKEN)).body.data.namespace).toEqual({
      fullPath: 'web/sites',
      parent: { fullPath: 'web', parent: null },
    });
    // dev is a member of web/sites only: the namespaces API does not show them web
    const asDev = await ns(dev.token);
    expect(asDev.body.errors).toBeUndefined();
    expect(asDev.body.data.namespace).toEqual({ fullPath: 'web/sites', parent: null });
  });
});

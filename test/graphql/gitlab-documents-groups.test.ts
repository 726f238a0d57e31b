import { addGroupMember, addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import type { TestGroup, TestUser } from '../support/factories';
import { addBulkSubgroups } from '../support/bulk';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { runDocument } from './gitlab-frontend/run';

const t = useTestApp();

// GitLab's frontend documents of the group lists and the project member search
// (test/graphql/gitlab-frontend/documents), run unmodified with the variables GitLab's frontend sends,
// and compared with REST's answers.
const USERS_SEARCH = 'graphql_shared/queries/users_search.query.graphql';
const ADMIN_GROUPS = 'admin/groups/index/graphql/queries/admin_groups.query.graphql';
const SHARED_GROUPS = 'groups/show/graphql/queries/shared_groups.query.graphql';

async function rest<T>(path: string, token = ROOT_TOKEN): Promise<{ body: T; total: number }> {
  const res = await api(t, token).get(`/api/v4${path}`).expect(200);
  return { body: res.body as T, total: Number(res.headers['x-total']) };
}

async function data(path: string, variables: Record<string, unknown>, token: string) {
  const res = await runDocument(t.server, path, variables, token);
  expect([path, res.status, res.errors]).toEqual([path, 200, undefined]);
  return res.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

interface RestMember {
  id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  web_url: string;
  access_level: number;
}

/**
 * acme/api (public) in acme (private): alice Developer of acme, bob Maintainer of the project. The
 * project is shared with org/partners (private) at Developer: carol (Owner there), dave (Reporter),
 * and erin, Maintainer of org (an invited group's ancestor). acme is shared with auditors (private)
 * at Reporter: frank (Maintainer there). gina's membership of partners expired.
 */
async function membersWorld() {
  const u = async (username: string, name: string) => createUser(t, { username, name });
  const [alice, bob, carol, dave, erin, frank, gina, olga] = [
    await u('alice', 'Alice Ames'),
    await u('bob', 'Bob Brown'),
    await u('carol', 'Carol Cruz'),
    await u('dave', 'Dave Dunn'),
    await u('erin', 'Erin Eck'),
    await u('frank', 'Frank Fox'),
    await u('gina', 'Gina Gold'),
    await u('olga', 'Olga Orr'),
  ];
  const acme = await createGroup(t, { path: 'acme', name: 'Acme' });
  const org = await createGroup(t, { path: 'org', name: 'Org' });
  const partners = await createGroup(t, { path: 'partners', name: 'Partners', parent: org });
  const auditors = await createGroup(t, { path: 'auditors', name: 'Auditors' });
  const project = await createProject(t, { namespace: acme, path: 'api', name: 'API', visibility: 'public' });
  await addGroupMember(t, acme, alice, 30);
  await addProjectMember(t, project, bob, 40);
  await addGroupMember(t, partners, carol, 50);
  await addGroupMember(t, partners, dave, 20);
  await addGroupMember(t, org, erin, 40);
  await addGroupMember(t, auditors, frank, 40);
  await t.orm.em
    .getConnection()
    .execute(
      `insert into group_members (group_id, user_id, access_level, expires_at) values (?, ?, 30, '2001-01-01')`,
      [partners.id, gina.id],
    );
  await api(t, ROOT_TOKEN)
    .post(`/api/v4/projects/${project.id}/share`)
    .send({ group_id: partners.id, group_access: 30 })
    .expect(201);
  await api(t, ROOT_TOKEN)
    .post(`/api/v4/groups/${acme.id}/share`)
    .send({ group_id: auditors.id, group_access: 20 })
    .expect(201);
  return { alice, bob, carol, dave, erin, frank, gina, olga, acme, org, partners, auditors, project };
}

/** The User fragments of a REST member. */
const userOf = (m: RestMember) => ({
  id: `gid://gitlab/User/${m.id}`,
  avatarUrl: m.avatar_url,
  name: m.name,
  username: m.username,
  webUrl: m.web_url,
  status: null,
});

describe("GitLab's project member search (users_search)", () => {
  const ALL = async (group: TestGroup) => (await rest<RestMember[]>(`/groups/${group.id}/members`)).body;

  it('lists direct, inherited, invited-group and shared-into-ancestor members by name, at the level each share allows', async () => {
    const w = await membersWorld();
    const vars = { search: '', fullPath: w.project.fullPath, first: 20 };
    const page = (await data(USERS_SEARCH, vars, w.alice.token)).namespace;
    const own = (await rest<RestMember[]>(`/projects/${w.project.id}/members/all`, w.alice.token)).body;
    const invited = [...(await ALL(w.partners)), ...(await ALL(w.org))];
    const shared = await ALL(w.auditors);
    // REST lists gina's expired membership of partners; an expired membership grants and lists nothing here.
    const expected = [...own, ...invited, ...shared]
      .filter((m) => m.username !== 'gina')
      .sort((a, b) => a.name.localeCompare(b.name));
    expect(invited.map((m) => m.username)).toContain('gina');
    expect(page.users.nodes.map((n: { user: { username: string } }) => n.user.username)).toEqual(
      expected.map((m) => m.username),
    );
    expect(page.users.nodes.map((n: { user: unknown }) => n.user)).toEqual(expected.map(userOf));
    // Each entry is the membership it comes from (its own global id), at the level the share reaches.
    const levels = await api(t, w.alice.token).graphql(
      `{ project(fullPath: "${w.project.fullPath}") { projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS, SHARED_INTO_ANCESTORS], sort: USER_FULL_NAME_ASC) {
        nodes { user { username } accessLevel { integerValue } group { fullPath } project { fullPath } } } } }`,
    );
    const byUser = Object.fromEntries(
      levels.body.data.project.projectMembers.nodes.map(
        (n: { user: { username: string }; accessLevel: { integerValue: number } }) => [
          n.user.username,
          n.accessLevel.integerValue,
        ],
      ),
    );
    const level = (members: RestMember[], username: string) =>
      members.find((m) => m.username === username)!.access_level;
    expect(byUser).toEqual({
      alice: level(own, 'alice'),
      bob: level(own, 'bob'),
      carol: Math.min(level(invited, 'carol'), 30),
      dave: Math.min(level(invited, 'dave'), 30),
      erin: Math.min(level(invited, 'erin'), 30),
      frank: Math.min(level(shared, 'frank'), 20),
    });
    expect(byUser.carol).toBe(30);
  });

  it('pages by name with cursors and searches, as GitLab sends them', async () => {
    const w = await membersWorld();
    // bob is a member of the project, not of acme: the groups shared into acme's ancestry are the ones he may see.
    const bobs = (await data(USERS_SEARCH, { search: '', fullPath: w.project.fullPath, first: 20 }, w.bob.token))
      .namespace.users.nodes;
    expect(bobs.map((n: { user: { username: string } }) => n.user.username)).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
    ]);
    const vars = { search: '', fullPath: w.project.fullPath, first: 2 };
    const names: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const page: any = (await data(USERS_SEARCH, { ...vars, after }, w.alice.token)).namespace.users; // eslint-disable-line @typescript-eslint/no-explicit-any
      names.push(...page.nodes.map((n: { user: { name: string } }) => n.user.name));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(names).toEqual(['Alice Ames', 'Bob Brown', 'Carol Cruz', 'Dave Dunn', 'Erin Eck', 'Frank Fox']);
    const found = (await data(USERS_SEARCH, { ...vars, search: 'er' }, w.alice.token)).namespace.users.nodes;
    expect(found.map((n: { user: { username: string } }) => n.user.username)).toEqual(['erin']);
  });

  it("sorts by GitLab's MemberSort values, ties by user in the same direction", async () => {
    const w = await membersWorld();
    const q = (sort: string) =>
      api(t, w.alice.token).graphql(
        `{ project(fullPath: "${w.project.fullPath}") { projectMembers(relations: [DIRECT, INHERITED, INVITED_GROUPS], sort: ${sort}) {
          nodes { userId accessLevel { integerValue } user { name } } } } }`,
      );
    type Node = { userId: number; accessLevel: { integerValue: number }; user: { name: string } };
    const nodes = async (sort: string): Promise<Node[]> => (await q(sort)).body.data.project.projectMembers.nodes;
    const byLevel = await nodes('ACCESS_LEVEL_DESC');
    const expected = [...byLevel].sort(
      (a, b) => b.accessLevel.integerValue - a.accessLevel.integerValue || b.userId - a.userId,
    );
    expect(byLevel).toEqual(expected);
    expect(byLevel.map((n) => n.accessLevel.integerValue)).toEqual([40, 30, 30, 30, 20]);
    expect((await nodes('USER_FULL_NAME_DESC')).map((n) => n.user.name)).toEqual(
      byLevel
        .map((n) => n.user.name)
        .sort()
        .reverse(),
    );
    expect((await nodes('ACCESS_LEVEL_ASC')).map((n) => n.userId)).toEqual(byLevel.map((n) => n.userId).reverse());
  });

  it('a caller who may not see the private invited or shared groups gets the members of the project only', async () => {
    const w = await membersWorld();
    const page = (await data(USERS_SEARCH, { search: '', fullPath: w.project.fullPath, first: 20 }, w.olga.token))
      .namespace.users.nodes;
    // olga sees the public project (not acme: its members are still listed, as REST's members/all shows her).
    const own = (await rest<RestMember[]>(`/projects/${w.project.id}/members/all`, w.olga.token)).body;
    expect(page.map((n: { user: { username: string } }) => n.user.username)).toEqual(
      own.sort((a, b) => a.name.localeCompare(b.name)).map((m) => m.username),
    );
    // A member of partners sees it (a share of a group they may see) but not auditors.
    const carolSees = (await data(USERS_SEARCH, { search: '', fullPath: w.project.fullPath, first: 20 }, w.carol.token))
      .namespace.users.nodes;
    expect(carolSees.map((n: { user: { username: string } }) => n.user.username)).toEqual([
      'alice',
      'bob',
      'carol',
      'dave',
      'erin',
    ]);
  });

  it('listing invited members grants them nothing: a member of a group shared into acme still cannot read it', async () => {
    const w = await membersWorld();
    await api(t, w.frank.token).get(`/api/v4/groups/${w.acme.id}`).expect(404);
  });
});

interface RestGroup {
  id: number;
  name: string;
  full_name: string;
  full_path: string;
  web_url: string;
  avatar_url: string | null;
  description: string;
  visibility: string;
  parent_id: number | null;
  statistics?: { storage_size: number };
}

const sql = <T>(q: string, params: unknown[] = []) => t.orm.em.getConnection().execute(q, params) as Promise<T[]>;
const gid = (id: number) => `gid://gitlab/Group/${id}`;

/** What GitLab's Group fragment shows of a group: REST's values, REST's counts and the caller's level. */
async function expectedGroup(r: RestGroup, level: number, caller: TestUser | 'root', token = ROOT_TOKEN) {
  const [row] = await sql<{ created_at: Date; updated_at: Date }>(
    'select created_at, updated_at from namespaces where id = ?',
    [r.id],
  );
  const owner = caller === 'root' || level >= 50;
  return {
    id: gid(r.id),
    fullName: r.full_name,
    fullPath: r.full_path,
    name: r.name,
    webUrl: r.web_url,
    avatarUrl: r.avatar_url,
    parent: r.parent_id ? { id: gid(r.parent_id) } : null,
    descendantGroupsCount: (await rest(`/groups/${r.id}/descendant_groups?all_available=true`, token)).total,
    projectsCount: (await rest(`/groups/${r.id}/projects`, token)).total,
    groupMembersCount: (await rest(`/groups/${r.id}/members`, token)).total,
    visibility: r.visibility.toUpperCase(),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    maxAccessLevel: { integerValue: level },
    isLinkedToSubscription: false,
    archived: false,
    markedForDeletion: false,
    isSelfDeletionInProgress: false,
    isSelfDeletionScheduled: false,
    permanentDeletionDate: null,
    userPermissions: expect.objectContaining({
      archiveGroup: false,
      changeGroup: owner,
      removeGroup: owner,
      viewEditPage: owner,
    }),
  };
}

/** acme (private, Markdown description) with acme/platform, lab (public), hidden (private); alice Owner of lab, Developer of acme. */
async function groupsWorld() {
  const alice = await createUser(t, { username: 'alice', name: 'Alice Ames' });
  const acme = await createGroup(t, { path: 'acme', name: 'Acme', description: 'The **Acme** <b>group</b>' });
  const platform = await createGroup(t, { path: 'platform', name: 'Platform', parent: acme });
  const lab = await createGroup(t, { path: 'lab', name: 'Lab', visibility: 'public' });
  const hidden = await createGroup(t, { path: 'hidden', name: 'Hidden' });
  await addGroupMember(t, acme, alice, 30);
  await addGroupMember(t, lab, alice, 50);
  await createProject(t, { namespace: acme, path: 'api', sizes: [700, 500, 150, 50] });
  await createProject(t, { namespace: platform, path: 'web', sizes: [90, 60, 20, 10] });
  // Distinct update times, in an order that is neither id nor name order.
  for (const [g, at] of [
    [lab, '2026-01-03'],
    [acme, '2026-01-05'],
    [platform, '2026-01-01'],
    [hidden, '2026-01-04'],
  ] as const)
    await sql('update namespaces set updated_at = ? where id = ?', [at, g.id]);
  return { alice, acme, platform, lab, hidden };
}

describe("GitLab's Admin > Groups list (admin_groups)", () => {
  const vars = { first: 20, last: null, before: null, after: null, sort: 'updated_at_desc', search: '', active: true };

  it("answers every group by last update with REST values, statistics and the administrator's permissions", async () => {
    await groupsWorld();
    const page = (await data(ADMIN_GROUPS, vars, ROOT_TOKEN)).groups;
    const all = await rest<RestGroup[]>('/groups?all_available=true&statistics=true');
    expect(page.count).toBe(all.total);
    const order = await sql<{ id: number }>(
      "select id from namespaces where kind = 'group' order by updated_at desc, id desc",
    );
    expect(page.nodes.map((n: { id: string }) => n.id)).toEqual(order.map((r) => gid(r.id)));
    const byId = new Map(all.body.map((r) => [gid(r.id), r]));
    for (const node of page.nodes) {
      const r = byId.get(node.id)!;
      expect(node).toEqual({
        ...(await expectedGroup(r, 0, 'root')),
        descriptionHtml: expect.any(String),
        userPermissions: {
          archiveGroup: false,
          canLeave: false,
          changeGroup: true,
          removeGroup: true,
          viewEditPage: true,
          adminAllResources: true,
        },
        projectStatistics: { storageSize: r.statistics?.storage_size },
      });
    }
    const acme = page.nodes.find((n: { fullPath: string }) => n.fullPath === 'acme');
    expect(acme.descriptionHtml).toBe('<p>The <strong>Acme</strong> &lt;b&gt;group&lt;/b&gt;</p>');
    expect(acme.projectStatistics).toEqual({ storageSize: 700 });
  });

  it("pages with cursors, sorts by GitLab's sort values, searches, and has no inactive group", async () => {
    await groupsWorld();
    const first = (await data(ADMIN_GROUPS, { ...vars, first: 3 }, ROOT_TOKEN)).groups;
    const next = (await data(ADMIN_GROUPS, { ...vars, first: 3, after: first.pageInfo.endCursor }, ROOT_TOKEN)).groups;
    const whole = (await data(ADMIN_GROUPS, vars, ROOT_TOKEN)).groups;
    expect([first.pageInfo.hasNextPage, next.pageInfo.hasNextPage, next.pageInfo.hasPreviousPage]).toEqual([
      true,
      false,
      true,
    ]);
    expect([...first.nodes, ...next.nodes]).toEqual(whole.nodes);
    const back = (
      await data(ADMIN_GROUPS, { ...vars, first: null, last: 3, before: next.pageInfo.startCursor }, ROOT_TOKEN)
    ).groups;
    expect(back.nodes).toEqual(first.nodes);
    const paths = async (sort: string, search = '') =>
      (await data(ADMIN_GROUPS, { ...vars, sort, search }, ROOT_TOKEN)).groups.nodes.map(
        (n: { fullPath: string }) => n.fullPath,
      );
    const rest_ = async (q: string) =>
      (await rest<RestGroup[]>(`/groups?all_available=true&${q}`)).body.map((g) => g.full_path);
    expect(await paths('name_asc')).toEqual(await rest_('order_by=name&sort=asc'));
    expect(await paths('path_desc')).toEqual(await rest_('order_by=path&sort=desc'));
    expect(await paths('id_asc')).toEqual(await rest_('order_by=id&sort=asc'));
    expect(await paths('created_at_asc')).toEqual(await rest_('order_by=id&sort=asc'));
    // A value GitLab's finder does not know (its storage-size orders are not served): by id, newest first.
    expect(await paths('storage_size_keyset_desc')).toEqual(await rest_('order_by=id&sort=desc'));
    // REST's search answers GitLab 10.3's reduced rows (id, name, path, description).
    const searched = (await rest<{ path: string }[]>('/groups?all_available=true&search=plat')).body;
    expect(await paths('name_asc', 'plat')).toEqual(searched.map((g) => `acme/${g.path}`));
    expect(searched).toHaveLength(1);
    const inactive = (await data(ADMIN_GROUPS, { ...vars, active: false }, ROOT_TOKEN)).groups;
    expect([inactive.count, inactive.nodes]).toEqual([0, []]);
  });

  it('a cursor page by last update reads the (updated_at, id) index of groups from the cursor on: no sort', async () => {
    const top = await createGroup(t, { path: 'bulk', name: 'Bulk' });
    await addBulkSubgroups(t, top, 1, 5000);
    await sql(
      `update namespaces set updated_at = timestamptz '2020-01-01' - id * interval '1 second' where parent_id = ?`,
      [top.id],
    );
    await sql('analyze namespaces');
    const first = (await data(ADMIN_GROUPS, { ...vars, first: 2 }, ROOT_TOKEN)).groups;
    for (const [sort, index] of [
      ['updated_at_desc', 'namespaces_group_updated_idx'],
      ['created_at_asc', 'namespaces_group_created_idx'],
    ]) {
      const cursor = (await data(ADMIN_GROUPS, { ...vars, sort, first: 2 }, ROOT_TOKEN)).groups.pageInfo.endCursor;
      const { sql: statements } = await t.captureQueries(() =>
        data(ADMIN_GROUPS, { ...vars, sort, first: 20, after: cursor }, ROOT_TOKEN),
      );
      const page = statements.find((q) => q.includes('page_cursor_v'))!;
      const plan = JSON.stringify(await sql(`explain (format json) ${page}`));
      expect([sort, plan.includes(index), plan.includes('"Node Type":"Sort"')]).toEqual([sort, true, false]);
    }
    expect(first.count).toBe(5001);
  });

  it('is null for a caller who is not an administrator', async () => {
    const { alice } = await groupsWorld();
    const res = await runDocument(t.server, ADMIN_GROUPS, vars, alice.token);
    expect(res).toEqual({ status: 200, data: { groups: null }, errors: undefined });
  });
});

describe("GitLab's shared groups tab (shared_groups)", () => {
  /** partners was invited to acme (private), lab (public) and hidden (private, expired share ignored: none). */
  async function sharesWorld() {
    const w = await groupsWorld();
    const partners = await createGroup(t, { path: 'partners', name: 'Partners', visibility: 'internal' });
    const carol = await createUser(t, { username: 'carol' });
    await addGroupMember(t, partners, carol, 30);
    await addGroupMember(t, partners, w.alice, 20);
    const shares: Record<string, unknown> = {};
    for (const g of [w.acme, w.lab, w.hidden]) {
      const res = await api(t, ROOT_TOKEN)
        .post(`/api/v4/groups/${g.id}/share`)
        .send({ group_id: partners.id, group_access: 30 })
        .expect(201);
      shares[g.fullPath] = res.body.shared_with_groups;
    }
    // An expired share lists nothing.
    const old = await createGroup(t, { path: 'old', name: 'Old', visibility: 'public' });
    await sql(
      `insert into group_group_links (shared_group_id, shared_with_group_id, group_access, expires_at) values (?, ?, 30, '2001-01-01')`,
      [old.id, partners.id],
    );
    return { ...w, partners, carol, shares };
  }

  it('lists the groups the group was invited to, by last update, with REST values, for an administrator', async () => {
    const w = await sharesWorld();
    expect(w.shares.acme).toEqual([expect.objectContaining({ group_id: w.partners.id, group_access_level: 30 })]);
    const vars = { fullPath: 'partners', first: 20, sort: 'UPDATED_AT_DESC', search: '' };
    const group = (await data(SHARED_GROUPS, vars, ROOT_TOKEN)).group;
    expect(group.id).toBe(gid(w.partners.id));
    // Invited to acme, lab and hidden: by updated_at, newest first.
    expect(group.sharedGroups.nodes.map((n: { fullPath: string }) => n.fullPath)).toEqual(['acme', 'hidden', 'lab']);
    expect(group.sharedGroups.count).toBe(3);
    const first = (await data(SHARED_GROUPS, { ...vars, first: 2 }, ROOT_TOKEN)).group.sharedGroups;
    const next = (await data(SHARED_GROUPS, { ...vars, first: 2, after: first.pageInfo.endCursor }, ROOT_TOKEN)).group
      .sharedGroups;
    expect([first.pageInfo.hasNextPage, next.pageInfo.hasNextPage]).toEqual([true, false]);
    expect([...first.nodes, ...next.nodes]).toEqual(group.sharedGroups.nodes);
    for (const node of group.sharedGroups.nodes) {
      const r = (await rest<RestGroup>(`/groups/${node.fullPath.replace('/', '%2F')}`)).body;
      expect(node).toEqual({ ...(await expectedGroup(r, 0, 'root')), descriptionHtml: expect.any(String) });
    }
  });

  it('shows a member only the groups they may see, with their level and permissions; group shares grant no access here', async () => {
    const w = await sharesWorld();
    const vars = { fullPath: 'partners', first: 20, sort: 'NAME_ASC', search: '' };
    // alice is a member of acme (Developer) and lab (Owner); carol of neither: private acme and hidden stay hidden.
    const alices = (await data(SHARED_GROUPS, vars, w.alice.token)).group.sharedGroups.nodes;
    expect(
      alices.map((n: { fullPath: string; maxAccessLevel: { integerValue: number } }) => [
        n.fullPath,
        n.maxAccessLevel.integerValue,
      ]),
    ).toEqual([
      ['acme', 30],
      ['lab', 50],
    ]);
    const lab = alices.find((n: { fullPath: string }) => n.fullPath === 'lab');
    expect(lab).toEqual({
      ...(await expectedGroup((await rest<RestGroup>('/groups/lab', w.alice.token)).body, 50, w.alice, w.alice.token)),
      descriptionHtml: '',
    });
    expect(lab.userPermissions.canLeave).toBe(false); // lab's only Owner
    expect(alices[0].userPermissions.canLeave).toBe(true);
    const carols = (await data(SHARED_GROUPS, vars, w.carol.token)).group.sharedGroups.nodes;
    expect(carols.map((n: { fullPath: string }) => n.fullPath)).toEqual(['lab']);
    await api(t, w.carol.token).get('/api/v4/groups/acme').expect(404);
    // A group the caller may not see answers null, as group(fullPath) does.
    const outsider = await createUser(t, { username: 'olga' });
    expect((await data(SHARED_GROUPS, { ...vars, fullPath: 'acme' }, outsider.token)).group).toBeNull();
  });

  it("sorts by GitLab's GroupSort values and by similarity to a search", async () => {
    const w = await sharesWorld();
    const paths = async (sort: string, search = '') =>
      (
        await data(SHARED_GROUPS, { fullPath: 'partners', first: 20, sort, search }, ROOT_TOKEN)
      ).group.sharedGroups.nodes.map((n: { fullPath: string }) => n.fullPath);
    expect(await paths('NAME_DESC')).toEqual(['lab', 'hidden', 'acme']);
    expect(await paths('PATH_ASC')).toEqual(['acme', 'hidden', 'lab']);
    expect(await paths('ID_DESC')).toEqual(
      [w.acme, w.lab, w.hidden].sort((a, b) => b.id - a.id).map((g) => g.fullPath),
    );
    expect(await paths('CREATED_AT_ASC')).toEqual(['acme', 'lab', 'hidden']);
    expect(await paths('UPDATED_AT_ASC')).toEqual(['lab', 'hidden', 'acme']);
    // SIMILARITY ranks by trigram similarity of path then name; without a search it is by id, newest first.
    await sql("update namespaces set name = 'Hidden lab' where id = ?", [w.hidden.id]);
    expect(await paths('SIMILARITY', 'lab')).toEqual(['lab', 'hidden']);
    expect(await paths('SIMILARITY')).toEqual(await paths('ID_DESC'));
  });
});

describe('statement counts of the group documents', () => {
  it('Admin > Groups, the shared groups tab and the member search cost the same statements for 2 rows as for 12', async () => {
    const { alice, acme } = await groupsWorld();
    const partners = await createGroup(t, { path: 'partners', name: 'Partners', visibility: 'public' });
    const project = await createProject(t, { namespace: acme, path: 'site' });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${project.id}/share`)
      .send({ group_id: partners.id, group_access: 30 })
      .expect(201);
    const counts = async () => ({
      admin: (await t.countQueries(() => data(ADMIN_GROUPS, { first: 20, sort: 'updated_at_desc' }, ROOT_TOKEN))).count,
      shared: (await t.countQueries(() => data(SHARED_GROUPS, { fullPath: 'partners', first: 20 }, alice.token))).count,
      members: (
        await t.countQueries(() =>
          data(USERS_SEARCH, { search: '', fullPath: project.fullPath, first: 20 }, alice.token),
        )
      ).count,
    });
    const grow = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const g = await createGroup(t, { path: `g${i}`, name: `G${i}`, visibility: 'public' });
        await addGroupMember(t, g, alice, 50);
        const u = await createUser(t);
        await addGroupMember(t, partners, u, 20);
        await api(t, alice.token)
          .post(`/api/v4/groups/${g.id}/share`)
          .send({ group_id: partners.id, group_access: 20 })
          .expect(201);
      }
    };
    await grow(0, 2);
    await counts(); // the first request of a user warms its per-user caches
    const few = await counts();
    await grow(2, 12);
    expect(await counts()).toEqual(few);
  });
});

export type { TestUser };

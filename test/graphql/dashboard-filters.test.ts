import { addGroupMember, createGroup, createProject, createUser } from '../support/factories';
import { createJob, createRunner } from '../runners/runner-factories';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Filters a dashboard needs: Group.descendantGroups, groups(parentPath), Group.projects
 * (GitLab's connection and arguments), runners(type, sort) (the fleet),
 * Runner.runnerType, Runner.jobCount. The new arguments are GraphQL only: REST answers as before.
 */
const t = useTestApp();
const HOUR = 60 * 60 * 1000;

type Named = { fullPath: string };
const paths = (nodes: Named[]) => nodes.map((n) => n.fullPath);

async function tree() {
  const acme = await createGroup(t, { path: 'acme', name: 'Acme', visibility: 'public' });
  const web = await createGroup(t, { path: 'web', name: 'Web', parent: acme, visibility: 'public' });
  const ui = await createGroup(t, { path: 'ui', name: 'Ui', parent: web, visibility: 'public' });
  const secret = await createGroup(t, { path: 'secret', name: 'Secret', parent: web, visibility: 'private' });
  const ops = await createGroup(t, { path: 'ops', name: 'Ops', parent: acme, visibility: 'public' });
  const other = await createGroup(t, { path: 'other', name: 'Other', visibility: 'public' });
  const insider = await createUser(t, { username: 'insider' });
  const outsider = await createUser(t, { username: 'outsider' });
  await addGroupMember(t, secret, insider, 30);
  return { acme, web, ui, secret, ops, other, insider, outsider };
}

describe('Group.descendantGroups', () => {
  const Q = `{ group(fullPath: "acme") {
    all: descendantGroups { count nodes { fullPath } }
    direct: descendantGroups(includeParentDescendants: false) { count nodes { fullPath } }
    found: descendantGroups(search: "sec") { nodes { fullPath } }
    first: descendantGroups(first: 2) { edges { node { fullPath } } pageInfo { hasNextPage endCursor } }
  } }`;

  it('all depths, by name, as the caller may see them: a private descendant is hidden from an outsider', async () => {
    const { insider, outsider } = await tree();
    const admin = (await api(t, ROOT_TOKEN).graphql(Q).expect(200)).body;
    expect(admin.errors).toBeUndefined();
    expect(paths(admin.data.group.all.nodes)).toEqual(['acme/ops', 'acme/web/secret', 'acme/web/ui', 'acme/web']);
    expect(admin.data.group.all.count).toBe(4);
    expect(paths(admin.data.group.direct.nodes)).toEqual(['acme/ops', 'acme/web']);
    expect(paths(admin.data.group.found.nodes)).toEqual(['acme/web/secret']);
    expect(admin.data.group.first.edges.map((e: { node: Named }) => e.node.fullPath)).toEqual([
      'acme/ops',
      'acme/web/secret',
    ]);
    expect(admin.data.group.first.pageInfo.hasNextPage).toBe(true);

    const out = (await api(t, outsider.token).graphql(Q).expect(200)).body.data.group;
    expect(paths(out.all.nodes)).toEqual(['acme/ops', 'acme/web/ui', 'acme/web']);
    expect(out.all.count).toBe(3);
    expect(out.found.nodes).toEqual([]);
    const anon = (await api(t).graphql(Q).expect(200)).body.data.group;
    expect(paths(anon.all.nodes)).toEqual(['acme/ops', 'acme/web/ui', 'acme/web']);
    const ins = (await api(t, insider.token).graphql(Q).expect(200)).body.data.group;
    expect(paths(ins.all.nodes)).toContain('acme/web/secret');

    // The connection continues from the cursor.
    const next = (
      await api(t, ROOT_TOKEN)
        .graphql(
          `{ group(fullPath: "acme") { descendantGroups(first: 2, after: "${admin.data.group.first.pageInfo.endCursor}") { nodes { fullPath } pageInfo { hasNextPage } } } }`,
        )
        .expect(200)
    ).body.data.group.descendantGroups;
    expect(paths(next.nodes)).toEqual(['acme/web/ui', 'acme/web']);
    expect(next.pageInfo.hasNextPage).toBe(false);
  });

  it('batched across the groups of a page: the same statements for 2 and for 10 parents', async () => {
    const Q2 = `{ groups(allAvailable: true, topLevelOnly: true, orderBy: PATH, first: 50) { nodes { fullPath
      descendantGroups(first: 5) { count nodes { fullPath } }
      projects(includeSubgroups: true, first: 5) { count nodes { path } }
    } } }`;
    const make = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        const top = await createGroup(t, { path: `top-${i}`, visibility: 'public' });
        const sub = await createGroup(t, { path: 'sub', name: 'Sub', parent: top, visibility: 'public' });
        await createGroup(t, { path: 'deep', name: 'Deep', parent: sub, visibility: 'public' });
        await createProject(t, { namespace: sub, path: `p-${i}`, visibility: 'public' });
      }
    };
    await make(0, 2);
    const run = async () => t.countQueries(() => api(t, ROOT_TOKEN).graphql(Q2).expect(200));
    const two = await run();
    expect(two.result.body.errors).toBeUndefined();
    expect(two.result.body.data.groups.nodes).toHaveLength(2);
    expect(two.result.body.data.groups.nodes[0].descendantGroups).toEqual({
      count: 2,
      nodes: [{ fullPath: 'top-0/sub/deep' }, { fullPath: 'top-0/sub' }],
    });
    expect(two.result.body.data.groups.nodes[0].projects).toEqual({ count: 1, nodes: [{ path: 'p-0' }] });
    await make(2, 10);
    const ten = await run();
    expect(ten.result.body.data.groups.nodes).toHaveLength(10);
    expect(ten.count).toBe(two.count);
  });
});

describe('groups(parentPath)', () => {
  it('lists the direct subgroups of that group; none when the caller may not see it; REST ignores parent_path as before', async () => {
    const { outsider, insider } = await tree();
    const q = (token: string | undefined, path: string) =>
      api(t, token)
        .graphql(`{ groups(allAvailable: true, parentPath: "${path}") { count nodes { fullPath } } }`)
        .expect(200);
    expect(paths((await q(ROOT_TOKEN, 'acme')).body.data.groups.nodes)).toEqual(['acme/ops', 'acme/web']);
    expect(paths((await q(ROOT_TOKEN, 'ACME/web')).body.data.groups.nodes)).toEqual(['acme/web/secret', 'acme/web/ui']);
    expect(paths((await q(outsider.token, 'acme/web')).body.data.groups.nodes)).toEqual(['acme/web/ui']);
    expect(paths((await q(insider.token, 'acme/web')).body.data.groups.nodes)).toEqual([
      'acme/web/secret',
      'acme/web/ui',
    ]);
    expect((await q(outsider.token, 'acme/web/secret')).body.data.groups).toEqual({ count: 0, nodes: [] });
    expect((await q(ROOT_TOKEN, 'nope')).body.data.groups).toEqual({ count: 0, nodes: [] });

    const plain = await api(t, ROOT_TOKEN).get('/api/v4/groups?all_available=true').expect(200);
    const withParam = await api(t, ROOT_TOKEN).get('/api/v4/groups?all_available=true&parent_path=acme').expect(200);
    expect(withParam.body).toEqual(plain.body);
    expect(withParam.headers['x-total']).toBe(plain.headers['x-total']);
    expect(plain.body).toHaveLength(6);
  });
});

describe('Group.projects', () => {
  async function projects() {
    const g = await tree();
    await createProject(t, { namespace: g.acme, path: 'site', visibility: 'public', sizes: [30, 30, 0, 0] });
    await createProject(t, {
      namespace: g.acme,
      path: 'old-site',
      visibility: 'public',
      archived: true,
      sizes: [10, 10, 0, 0],
    });
    await createProject(t, { namespace: g.web, path: 'frontend', visibility: 'public', sizes: [20, 20, 0, 0] });
    await createProject(t, { namespace: g.secret, path: 'vault', visibility: 'private', sizes: [40, 40, 0, 0] });
    return g;
  }
  const Q = `{ group(fullPath: "acme") {
    own: projects { count nodes { path } }
    live: projects(includeArchived: false) { nodes { path } }
    tree: projects(includeSubgroups: true) { count nodes { path } }
    big: projects(includeSubgroups: true, sort: STORAGE_SIZE_DESC) { nodes { path } }
    found: projects(includeSubgroups: true, search: "SITE") { nodes { path } }
    first: projects(includeSubgroups: true, sort: STORAGE_SIZE_ASC, first: 1) { edges { cursor node { path } } pageInfo { hasNextPage } }
  } }`;

  it('archived included unless includeArchived: false, subgroups with includeSubgroups, search, sort; private projects hidden', async () => {
    const { outsider } = await projects();
    const admin = (await api(t, ROOT_TOKEN).graphql(Q).expect(200)).body;
    expect(admin.errors).toBeUndefined();
    const g = admin.data.group;
    expect(g.own).toEqual({ count: 2, nodes: [{ path: 'site' }, { path: 'old-site' }] });
    expect(g.live.nodes).toEqual([{ path: 'site' }]);
    expect(g.tree.count).toBe(4);
    expect(g.big.nodes.map((n: { path: string }) => n.path)).toEqual(['vault', 'site', 'frontend', 'old-site']);
    expect(g.found.nodes.map((n: { path: string }) => n.path)).toEqual(['site', 'old-site']);
    expect(g.first.edges.map((e: { node: { path: string } }) => e.node.path)).toEqual(['old-site']);
    expect(g.first.pageInfo.hasNextPage).toBe(true);
    // REST's group detail (GET /groups/:id, its projects) is unchanged.
    const detail = await api(t, ROOT_TOKEN).get('/api/v4/groups/acme').expect(200);
    expect(detail.body.projects.map((p: { path: string }) => p.path)).toEqual(['site', 'old-site']);

    const out = (await api(t, outsider.token).graphql(Q).expect(200)).body.data.group;
    expect(out.tree.count).toBe(3);
    expect(out.big.nodes.map((n: { path: string }) => n.path)).toEqual(['site', 'frontend', 'old-site']);
  });

  it("includeSubgroups adds the descendants' projects; REST GET /groups/:id/projects ignores include_subgroups as before", async () => {
    await projects();
    const q = async (args: string) =>
      (
        await api(t, ROOT_TOKEN)
          .graphql(`{ group(fullPath: "acme") { projects(includeArchived: false${args}) { nodes { path } } } }`)
          .expect(200)
      ).body.data.group.projects.nodes
        .map((n: { path: string }) => n.path)
        .sort();
    expect(await q('')).toEqual(['site']);
    expect(await q(', includeSubgroups: true')).toEqual(['frontend', 'site', 'vault']);
    const plain = await api(t, ROOT_TOKEN).get('/api/v4/groups/acme/projects').expect(200);
    const withParam = await api(t, ROOT_TOKEN).get('/api/v4/groups/acme/projects?include_subgroups=true').expect(200);
    expect(withParam.body).toEqual(plain.body);
    expect(plain.body.map((p: { path: string }) => p.path)).toEqual(['site']);
  });
});

describe('runners(type, sort), Runner.runnerType and Runner.jobCount', () => {
  async function fleet() {
    const now = Date.now();
    const owner = await createUser(t, { username: 'owner' });
    const group = await createGroup(t, { path: 'fleet', visibility: 'private' });
    await addGroupMember(t, group, owner, 40);
    const project = await createProject(t, { namespace: group, path: 'app' });
    const a = await createRunner(t, { shared: true, description: 'a', contactedAt: new Date(now - 3 * HOUR) });
    const b = await createRunner(t, { shared: false, description: 'b', contactedAt: null, projects: [project] });
    const c = await createRunner(t, { shared: true, description: 'c', contactedAt: new Date(now - HOUR / 2) });
    const d = await createRunner(t, {
      shared: false,
      description: 'd',
      contactedAt: new Date(now - 2 * HOUR),
      projects: [project],
    });
    const created = [
      [a, 3],
      [b, 1],
      [c, 4],
      [d, 2],
    ] as const;
    for (const [r, days] of created)
      await t.orm.em
        .getConnection()
        .execute('update ci_runners set created_at = ? where id = ?', [new Date(now - days * 24 * HOUR), r.id]);
    return { owner, project, a, b, c, d };
  }
  const ids = (nodes: { id: number }[]) => nodes.map((n) => n.id);

  it('type filters shared (INSTANCE_TYPE) and specific (PROJECT_TYPE) runners; GROUP_TYPE matches none; runnerType says which', async () => {
    const { owner, a, b, c, d } = await fleet();
    const all = async (args: string) =>
      (await api(t, ROOT_TOKEN).graphql(`{ runners${args} { nodes { id: databaseId runnerType } } }`).expect(200)).body
        .data.runners.nodes;
    expect(await all('')).toEqual([
      { id: a.id, runnerType: 'INSTANCE_TYPE' },
      { id: b.id, runnerType: 'PROJECT_TYPE' },
      { id: c.id, runnerType: 'INSTANCE_TYPE' },
      { id: d.id, runnerType: 'PROJECT_TYPE' },
    ]);
    expect(ids(await all('(type: INSTANCE_TYPE)'))).toEqual([a.id, c.id]);
    expect(ids(await all('(type: PROJECT_TYPE)'))).toEqual([b.id, d.id]);
    expect(await all('(type: GROUP_TYPE)')).toEqual([]);
    // The fleet is for administrators (GitLab's runners); a runner's owner lists theirs through REST's GET /runners.
    const own = (await api(t, owner.token).graphql('{ runners(type: PROJECT_TYPE) { nodes { id: databaseId } } }'))
      .body;
    expect(own.data.runners).toBeNull();
    expect(own.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const bad = await api(t, ROOT_TOKEN).graphql('{ runners(type: SHARED) { nodes { id } } }');
    expect(bad.body.errors?.[0]?.message).toMatch(/CiRunnerType/);
  });

  it('sort CONTACTED_ASC/DESC (never contacted as the oldest), CREATED_ASC/DESC; id order without sort; keyset connection pages', async () => {
    const { owner, a, b, c, d } = await fleet();
    const all = async (args: string) =>
      ids(
        (await api(t, ROOT_TOKEN).graphql(`{ runners${args} { nodes { id: databaseId } } }`).expect(200)).body.data
          .runners.nodes,
      );
    expect(await all('')).toEqual([a.id, b.id, c.id, d.id]);
    expect(await all('(sort: CONTACTED_ASC)')).toEqual([b.id, a.id, d.id, c.id]);
    expect(await all('(sort: CONTACTED_DESC)')).toEqual([c.id, d.id, a.id, b.id]);
    expect(await all('(sort: CREATED_ASC)')).toEqual([c.id, a.id, d.id, b.id]);
    expect(await all('(sort: CREATED_DESC)')).toEqual([b.id, d.id, a.id, c.id]);
    expect(await all('(sort: CONTACTED_DESC, type: INSTANCE_TYPE)')).toEqual([c.id, a.id]);
    const own = await api(t, owner.token).get('/api/v4/runners').expect(200);
    expect(own.body.map((r: { id: number }) => r.id).sort()).toEqual([b.id, d.id].sort());

    // Page by page with Relay cursors, across the never-contacted runner's -infinity.
    for (const sort of ['CONTACTED_ASC', 'CONTACTED_DESC', 'CREATED_ASC']) {
      const seen: number[] = [];
      let after: string | null = null;
      for (let i = 0; i < 4; i += 1) {
        const q: string = `{ runners(sort: ${sort}, first: 1${after ? `, after: "${after}"` : ''}) { nodes { id: databaseId } pageInfo { hasNextPage endCursor } } }`;
        const res = (await api(t, ROOT_TOKEN).graphql(q).expect(200)).body;
        expect(res.errors).toBeUndefined();
        seen.push(...ids(res.data.runners.nodes));
        after = res.data.runners.pageInfo.endCursor;
        expect(res.data.runners.pageInfo.hasNextPage).toBe(i < 3);
      }
      expect(seen).toEqual(await all(`(sort: ${sort})`));
    }
  });

  it('REST GET /runners and /runners/all answer as before with sort or type (unknown parameters ignored)', async () => {
    const { owner } = await fleet();
    for (const [token, path] of [
      [owner.token, '/api/v4/runners'],
      [ROOT_TOKEN, '/api/v4/runners/all'],
    ] as const) {
      const plain = await api(t, token).get(path).expect(200);
      const sorted = await api(t, token)
        .get(`${path}?sort=CONTACTED_DESC&type=instance_type&runner_type=INSTANCE_TYPE`)
        .expect(200);
      expect(sorted.body).toEqual(plain.body);
      expect(sorted.headers['x-total']).toBe(plain.headers['x-total']);
    }
  });

  it('the parameter tables of GET /runners and GET /runners/all did not gain type or sort (OpenAPI)', async () => {
    const doc = (await api(t).get('/api/v4/openapi.json').expect(200)).body;
    expect(doc.paths['/runners']).toBeDefined();
    for (const path of ['/runners', '/runners/all']) {
      const names = ((doc.paths[path]?.get?.parameters ?? []) as { name: string }[]).map((p) => p.name);
      expect(names).not.toContain('type');
      expect(names).not.toContain('sort');
    }
    const groups = ((doc.paths['/groups']?.get?.parameters ?? []) as { name: string }[]).map((p) => p.name);
    expect(groups).not.toContain('parent_path');
  });

  it('jobCount: bounded, null where jobs is null, one statement for the runners of a page (2 or 10)', async () => {
    const { owner, project, a, b, d } = await fleet();
    for (let i = 0; i < 3; i += 1) await createJob(t, { runner: b, project });
    await createJob(t, { runner: a, project });
    const Q = '{ runners { nodes { id: databaseId jobCount } } }';
    const res = (await api(t, ROOT_TOKEN).graphql(Q).expect(200)).body.data.runners.nodes;
    expect(Object.fromEntries(res.map((r: { id: number; jobCount: number }) => [r.id, r.jobCount]))).toMatchObject({
      [a.id]: 1,
      [b.id]: 3,
      [d.id]: 0,
    });
    // A non-admin sees the count of the runners they own only (as Runner.jobs).
    const mine = (
      await api(t, owner.token)
        .graphql(
          `{ own: runner(id: "${b.id}") { jobCount } idle: runner(id: "${d.id}") { jobCount } shared: runner(id: "${a.id}") { jobCount } }`,
        )
        .expect(200)
    ).body.data;
    expect(mine).toEqual({ own: { jobCount: 3 }, idle: { jobCount: 0 }, shared: { jobCount: null } });

    const two = await t.countQueries(() =>
      api(t, ROOT_TOKEN).graphql('{ runners(first: 2) { nodes { jobCount } } }').expect(200),
    );
    const ten = await t.countQueries(() =>
      api(t, ROOT_TOKEN).graphql('{ runners(first: 10) { nodes { jobCount } } }').expect(200),
    );
    for (let i = 0; i < 8; i += 1) await createRunner(t, { shared: true });
    const ten2 = await t.countQueries(() =>
      api(t, ROOT_TOKEN).graphql('{ runners(first: 10) { nodes { jobCount } } }').expect(200),
    );
    expect(ten2.result.body.data.runners.nodes).toHaveLength(10);
    expect(ten.count).toBe(two.count);
    expect(ten2.count).toBe(two.count);
  });

  it("jobCount(statuses): only jobs in those statuses (GitLab's argument), an empty list counts none; one statement per set of statuses", async () => {
    const { project, a, b } = await fleet();
    for (const status of ['running', 'running', 'failed', 'success'])
      await createJob(t, { runner: b, project, status });
    await createJob(t, { runner: a, project, status: 'failed' });
    const Q = `{ runners { nodes { id: databaseId all: jobCount running: jobCount(statuses: [RUNNING]) broken: jobCount(statuses: [FAILED, RUNNING, FAILED]) none: jobCount(statuses: []) } } }`;
    const { result, count } = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(Q).expect(200));
    const byId = Object.fromEntries(result.body.data.runners.nodes.map((r: { id: number }) => [r.id, r]));
    expect(byId[b.id]).toEqual({ id: b.id, all: 4, running: 2, broken: 3, none: 0 });
    expect(byId[a.id]).toEqual({ id: a.id, all: 1, running: 0, broken: 1, none: 0 });
    const plain = await t.countQueries(() =>
      api(t, ROOT_TOKEN).graphql('{ runners { nodes { id: databaseId } } }').expect(200),
    );
    expect(count).toBe(plain.count + 4); // four sets of statuses, one count statement each, for all the runners
    expect(
      (await api(t, ROOT_TOKEN).graphql('{ runners { nodes { jobCount(statuses: [NOPE]) } } }')).body.errors[0]
        .extensions.code,
    ).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

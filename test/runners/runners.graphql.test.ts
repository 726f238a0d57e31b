import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

const DETAIL =
  'id: databaseId description active isShared name tagList runUntagged locked accessLevel version revision platform architecture contactedAt token projects(sort: "id_asc") { nodes { id: databaseId pathWithNamespace } }';

describe('GraphQL runners', () => {
  it('runner(id) shows the same values as GET /runners/:id', async () => {
    const w = await runnerWorld(t);
    await api(t, ROOT_TOKEN)
      .put(`/api/v4/runners/${w.multi.id}`)
      .send({ tag_list: 'a,b', access_level: 'ref_protected' });
    const rest = (await api(t, w.master.token).get(`/api/v4/runners/${w.multi.id}`)).body;
    const gql = await api(t, w.master.token).graphql(`query($id: CiRunnerID!) { runner(id: $id) { ${DETAIL} } }`, {
      id: w.multi.id,
    });
    expect(gql.status).toBe(200);
    const d = gql.body.data.runner;
    expect({
      id: d.id,
      description: d.description,
      active: d.active,
      is_shared: d.isShared,
      name: d.name,
      tag_list: d.tagList,
      run_untagged: d.runUntagged,
      locked: d.locked,
      access_level: d.accessLevel.toLowerCase(),
      version: d.version,
      revision: d.revision,
      platform: d.platform,
      architecture: d.architecture,
      contacted_at: d.contactedAt,
      token: d.token,
      projects: d.projects.nodes.map((p: { id: number }) => p.id),
    }).toEqual({ ...rest, projects: rest.projects.map((p: { id: number }) => p.id) });
  });

  it('runners (the admin fleet) and Project.runners list what the REST routes list', async () => {
    const w = await runnerWorld(t);
    const ids = (page: { nodes: { id: number }[] }) => page.nodes.map((n) => n.id);
    const restIds = async (token: string, path: string) =>
      (await api(t, token).get(path).expect(200)).body.map((r: { id: number }) => r.id);
    // GitLab's Query.runners is every runner of the instance, as GET /runners/all.
    const fleet = await api(t, ROOT_TOKEN).graphql('{ runners { nodes { id: databaseId } count } }');
    expect(fleet.body.errors).toBeUndefined();
    expect(ids(fleet.body.data.runners)).toEqual(await restIds(ROOT_TOKEN, '/api/v4/runners/all'));
    expect(fleet.body.data.runners.count).toBe(fleet.body.data.runners.nodes.length);
    const shared = await api(t, ROOT_TOKEN).graphql(
      '{ runners(type: INSTANCE_TYPE, first: 5) { nodes { id: databaseId } count pageInfo { hasNextPage } } }',
    );
    expect(shared.body.data.runners).toEqual({
      nodes: [{ id: w.shared.id }],
      count: 1,
      pageInfo: { hasNextPage: false },
    });
    expect(await restIds(ROOT_TOKEN, '/api/v4/runners/all?scope=shared')).toEqual([w.shared.id]);
    // The runners a user owns are REST's GET /runners only (GitLab 10.3); GitLab's GraphQL API has no such list.
    const owned = await restIds(w.master.token, '/api/v4/runners?scope=active');
    expect(owned.length).toBeGreaterThan(0);
    const mine = await api(t, w.master.token).graphql('{ ownedRunners { nodes { id: databaseId } } }');
    expect(mine.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const project = await api(t, w.master.token).graphql(
      `{ project(id: "${w.project.id}") { runners { nodes { id: databaseId isShared } } } }`,
    );
    expect(project.body.errors).toBeUndefined();
    expect(ids(project.body.data.project.runners)).toEqual(
      await restIds(w.master.token, `/api/v4/projects/${w.project.id}/runners`),
    );
    expect(ids(project.body.data.project.runners)).toEqual([w.specific.id, w.shared.id, w.multi.id]);
  });

  it("an administrator's runners { count } is the whole fleet, not the runners the administrator owns", async () => {
    const w = await runnerWorld(t);
    await createRunner(t, { description: 'in no project' });
    const [{ n }] = await t.orm.em.getConnection().execute<{ n: string }[]>('select count(*) as n from ci_runners');
    expect(Number(n)).toBeGreaterThan(3);
    const res = await api(t, ROOT_TOKEN).graphql('{ runners { count } }');
    expect(res.body).toEqual({ data: { runners: { count: Number(n) } } });
    const total = (await api(t, ROOT_TOKEN).get('/api/v4/runners/all').expect(200)).headers['x-total'];
    expect(total).toBe(n);
    // GET /runners stays the caller's own runners: root owns none of them.
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners').expect(200)).body).toEqual([]);
    expect(w.shared.id).toBeGreaterThan(0);
  });

  it("a non-administrator's runners is null with FORBIDDEN, as GitLab's RunnersResolver (admin only), even for an owner", async () => {
    const w = await runnerWorld(t);
    for (const token of [w.master.token, w.stranger.token]) {
      const res = await api(t, token).graphql('{ runners { count nodes { id } } }');
      expect(res.body.data).toEqual({ runners: null });
      expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    }
  });

  it('answers with the REST rules as error codes; null for a missing runner; mutation messages in errors', async () => {
    const w = await runnerWorld(t);
    const code = async (token: string | undefined, q: string) =>
      (await api(t, token).graphql(q)).body.errors?.[0]?.extensions?.code;
    expect(await code(w.stranger.token, '{ runners { count } }')).toBe('FORBIDDEN');
    expect(await code(undefined, '{ runners { count } }')).toBe('UNAUTHENTICATED');
    // GitLab's convention for a root lookup: null without an error when missing; REST keeps its 404.
    expect((await api(t, ROOT_TOKEN).graphql('{ runner(id: 999999) { id } }')).body).toEqual({
      data: { runner: null },
    });
    expect((await api(t, ROOT_TOKEN).get('/api/v4/runners/999999')).status).toBe(404);
    expect(await code(w.stranger.token, `{ runner(id: ${w.specific.id}) { id } }`)).toBe('FORBIDDEN');
    // REST's `scope` is not an argument of GitLab's runners (it filters by `type`): refused before anything runs
    // (rather than passing validation and failing at run time), for an administrator too.
    expect(await code(ROOT_TOKEN, '{ runners(scope: SHARED) { count } }')).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(
      (await api(t, ROOT_TOKEN).graphql('{ runners(type: INSTANCE_TYPE) { count } }')).body.errors,
    ).toBeUndefined();
    const empty = await api(t, w.master.token).graphql(
      `mutation { runnerUpdate(input: { id: ${w.specific.id} }) { runner { id } errors } }`,
    );
    expect(empty.body.errors).toBeUndefined();
    expect(empty.body.data.runnerUpdate.runner).toBeNull();
    expect(empty.body.data.runnerUpdate.errors).toEqual([
      expect.stringMatching(/at least one parameter must be provided$/),
    ]);
    const msg = (
      await api(t, w.master.token).graphql(
        `mutation { runnerUnassignFromProject(input: { projectPath: "${w.project.fullPath}", runnerId: ${w.specific.id} }) { errors } }`,
      )
    ).body.errors[0];
    expect(msg.extensions.code).toBe('FORBIDDEN');
    expect(msg.message).toBe(
      '403 Forbidden - Only one project associated with the runner. Please remove the runner instead',
    );
    const conflict = await api(t, w.master.token).graphql(
      `mutation { runnerAssignToProject(input: { projectPath: "${w.project.fullPath}", runnerId: ${w.multi.id} }) { runner { id } errors } }`,
    );
    expect(conflict.body.errors).toBeUndefined();
    expect(conflict.body.data.runnerAssignToProject).toEqual({
      runner: null,
      errors: ['Runner was already enabled for this project'],
    });
  });

  it('mutations change what REST reads', async () => {
    const w = await runnerWorld(t);
    const upd = await api(t, w.master.token).graphql(
      `mutation { runnerUpdate(input: { id: ${w.specific.id}, description: "g", tagList: ["x, y"], paused: true }) { runner { description tagList active paused } errors } }`,
    );
    expect(upd.body.data.runnerUpdate).toEqual({
      runner: { description: 'g', tagList: ['x', 'y'], active: false, paused: true },
      errors: [],
    });
    expect((await api(t, w.master.token).get(`/api/v4/runners/${w.specific.id}`)).body).toMatchObject({
      description: 'g',
      active: false,
    });
    const en = await api(t, w.master.token).graphql(
      `mutation { runnerAssignToProject(input: { projectPath: "${w.other.fullPath}", runnerId: ${w.specific.id} }) { runner { id } errors } }`,
    );
    expect(en.body.data.runnerAssignToProject).toEqual({
      runner: { id: `gid://gitlab/Ci::Runner/${w.specific.id}` },
      errors: [],
    });
    const dis = await api(t, w.master.token).graphql(
      `mutation { runnerUnassignFromProject(input: { projectPath: "${w.other.fullPath}", runnerId: ${w.specific.id} }) { errors } }`,
    );
    expect(dis.body).toEqual({ data: { runnerUnassignFromProject: { errors: [] } } });
    expect(
      (await api(t, ROOT_TOKEN).graphql(`mutation { runnerDelete(input: { id: ${w.shared.id} }) { errors } }`)).body,
    ).toEqual({ data: { runnerDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.shared.id}`)).status).toBe(404);
  });

  it('CiRunner.jobs matches GET /runners/:id/jobs', async () => {
    const w = await runnerWorld(t);
    await createJob(t, { runner: w.specific, project: w.project, user: w.master, coverage: 12.5 });
    await createJob(t, { runner: w.specific, project: w.other, status: 'failed' });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs`)).body;
    const gql = await api(t, ROOT_TOKEN).graphql(
      `{ runner(id: ${w.specific.id}) { jobs { count nodes { id: databaseId status coverage duration createdAt user { username } commit { id shortId title } pipeline { id: databaseId sha } project { id: databaseId pathWithNamespace } } } } }`,
    );
    const nodes = gql.body.data.runner.jobs.nodes;
    expect(gql.body.data.runner.jobs.count).toBe(2);
    expect(
      nodes.map((n: { id: number; status: string; coverage: number | null; duration: number; createdAt: string }) => [
        n.id,
        n.status.toLowerCase(),
        n.coverage,
        n.duration,
        n.createdAt,
      ]),
    ).toEqual(
      rest.map((j: { id: number; status: string; coverage: number | null; duration: number; created_at: string }) => [
        j.id,
        j.status,
        j.coverage,
        j.duration,
        j.created_at,
      ]),
    );
    expect(nodes[0].user).toEqual({ username: rest[0].user.username });
    expect(nodes[0].commit).toEqual({
      id: rest[0].commit.id,
      shortId: rest[0].commit.short_id,
      title: rest[0].commit.title,
    });
    expect(nodes[1].project).toEqual({
      id: rest[1].project.id,
      pathWithNamespace: rest[1].project.path_with_namespace,
    });
    expect(
      (await api(t, ROOT_TOKEN).graphql(`{ runner(id: ${w.specific.id}) { jobs(status: FAILED) { count } } }`)).body
        .data.runner.jobs.count,
    ).toBe(1);
  });

  it('Runner.jobs is batched: a runner list with jobs costs the same statements for 1 and for 20 runners', async () => {
    const w = await runnerWorld(t);
    await createJob(t, { runner: w.specific, project: w.project, user: w.master });
    const q =
      '{ runners(first: 20) { nodes { id jobs(first: 2) { count nodes { id user { id } commit { id } pipeline { id } project { id nameWithNamespace } } } } } }';
    // Warm-up: the first request of a test also runs one-off statements (settings load, the caller's daily activity stamp).
    await api(t, ROOT_TOKEN).graphql(q);
    const one = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q));
    expect(one.result.body.errors).toBeUndefined();
    for (let i = 0; i < 17; i += 1) {
      const r = await createRunner(t, { projects: [w.project] });
      await createJob(t, { runner: r, project: i % 2 ? w.project : w.other, user: w.master });
      await createJob(t, { runner: r, project: w.project });
    }
    const twenty = await t.countQueries(() => api(t, ROOT_TOKEN).graphql(q));
    const nodes = twenty.result.body.data.runners.nodes;
    expect(nodes).toHaveLength(20);
    expect(nodes[19].jobs.count).toBe(2);
    expect(twenty.count).toBe(one.count);
    // Non-owners get null jobs (not an error) for runners they may read but not list jobs of.
    const shared = await api(t, w.master.token).graphql(`{ runner(id: ${w.shared.id}) { jobs { count } } }`);
    expect(shared.body.data.runner.jobs).toBeNull();
  });

  it('list routes send the same number of SQL statements for 1 and for 20 runners', async () => {
    const w = await runnerWorld(t);
    const routes = ['/api/v4/runners/all', `/api/v4/projects/${w.project.id}/runners`];
    const counts = async () => {
      const out: number[] = [];
      for (const r of routes) out.push((await t.countQueries(() => api(t, ROOT_TOKEN).get(r))).count);
      return out;
    };
    const before = await counts();
    const mine = (await t.countQueries(() => api(t, w.master.token).get('/api/v4/runners'))).count;
    for (let i = 0; i < 18; i += 1) await createRunner(t, { projects: [w.project] });
    const after = await counts();
    expect(after).toEqual(before);
    const mineAfter = await t.countQueries(() => api(t, w.master.token).get('/api/v4/runners'));
    expect(mineAfter.result.body).toHaveLength(20);
    expect(mineAfter.count).toBe(mine);
  });
});

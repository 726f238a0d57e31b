import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { createJob, createRunner } from './runner-factories';
import { runnerWorld } from './runner-fixture';

const t = useTestApp();

const DETAIL =
  'id: databaseId description active isShared name tagList runUntagged locked accessLevel version revision platform architecture contactedAt token projects { id: databaseId pathWithNamespace }';

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
      projects: d.projects.map((p: { id: number }) => p.id),
    }).toEqual({ ...rest, projects: rest.projects.map((p: { id: number }) => p.id) });
  });

  it('runners, allRunners and projectRunners list what the REST routes list', async () => {
    const w = await runnerWorld(t);
    const ids = (page: { nodes: { id: number }[] }) => page.nodes.map((n) => n.id);
    const mine = await api(t, w.master.token).graphql('{ runners(scope: ACTIVE) { nodes { id: databaseId } total } }');
    expect(ids(mine.body.data.runners)).toEqual(
      (await api(t, w.master.token).get('/api/v4/runners?scope=active')).body.map((r: { id: number }) => r.id),
    );
    const all = await api(t, ROOT_TOKEN).graphql(
      '{ allRunners(scope: SHARED, perPage: 5) { nodes { id: databaseId } total perPage } }',
    );
    expect(all.body.data.allRunners).toEqual({ nodes: [{ id: w.shared.id }], total: 1, perPage: 5 });
    const project = await api(t, w.master.token).graphql(
      `{ projectRunners(projectId: "${w.project.id}") { nodes { id: databaseId isShared } } }`,
    );
    expect(ids(project.body.data.projectRunners)).toEqual([w.specific.id, w.shared.id, w.multi.id]);
  });

  it('answers with the REST rules as error codes', async () => {
    const w = await runnerWorld(t);
    const code = async (token: string | undefined, q: string) =>
      (await api(t, token).graphql(q)).body.errors?.[0]?.extensions?.code;
    expect(await code(w.stranger.token, '{ allRunners { total } }')).toBe('FORBIDDEN');
    expect(await code(undefined, '{ runners { total } }')).toBe('UNAUTHENTICATED');
    expect(await code(ROOT_TOKEN, '{ runner(id: 999999) { id } }')).toBe('NOT_FOUND');
    expect(await code(w.stranger.token, `{ runner(id: ${w.specific.id}) { id } }`)).toBe('FORBIDDEN');
    // The caller's own runners have no shared/specific scope: the enum refuses it before anything runs
    // (rather than passing validation and failing at run time); allRunners takes it.
    expect(await code(w.master.token, '{ runners(scope: SHARED) { total } }')).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await api(t, ROOT_TOKEN).graphql('{ allRunners(scope: SHARED) { total } }')).body.errors).toBeUndefined();
    expect(await code(w.master.token, `mutation { updateRunner(id: ${w.specific.id}, input: {}) { id } }`)).toBe(
      'BAD_USER_INPUT',
    );
    const msg = (
      await api(t, w.master.token).graphql(
        `mutation { disableProjectRunner(projectId: "${w.project.id}", runnerId: ${w.specific.id}) }`,
      )
    ).body.errors[0];
    expect(msg.extensions.code).toBe('FORBIDDEN');
    expect(msg.message).toBe(
      '403 Forbidden - Only one project associated with the runner. Please remove the runner instead',
    );
    expect(
      await code(
        w.master.token,
        `mutation { enableProjectRunner(projectId: "${w.project.id}", runnerId: ${w.multi.id}) { id } }`,
      ),
    ).toBe('CONFLICT');
  });

  it('mutations change what REST reads', async () => {
    const w = await runnerWorld(t);
    const upd = await api(t, w.master.token).graphql(
      `mutation { updateRunner(id: ${w.specific.id}, input: { description: "g", tagList: ["x, y"], active: false }) { description tagList active } }`,
    );
    expect(upd.body.data.updateRunner).toEqual({ description: 'g', tagList: ['x', 'y'], active: false });
    const en = await api(t, w.master.token).graphql(
      `mutation { enableProjectRunner(projectId: "${w.other.id}", runnerId: ${w.specific.id}) { id } }`,
    );
    expect(en.body.data.enableProjectRunner).toEqual({ id: `gid://gitlab/Ci::Runner/${w.specific.id}` });
    const dis = await api(t, w.master.token).graphql(
      `mutation { disableProjectRunner(projectId: "${w.other.id}", runnerId: ${w.specific.id}) }`,
    );
    expect(dis.body.data.disableProjectRunner).toBe(true);
    expect(
      (await api(t, ROOT_TOKEN).graphql(`mutation { deleteRunner(id: ${w.shared.id}) }`)).body.data.deleteRunner,
    ).toBe(true);
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.shared.id}`)).status).toBe(404);
  });

  it('runnerJobs matches GET /runners/:id/jobs', async () => {
    const w = await runnerWorld(t);
    await createJob(t, { runner: w.specific, project: w.project, user: w.master, coverage: 12.5 });
    await createJob(t, { runner: w.specific, project: w.other, status: 'failed' });
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/runners/${w.specific.id}/jobs`)).body;
    const gql = await api(t, ROOT_TOKEN).graphql(
      `{ runnerJobs(id: ${w.specific.id}) { total nodes { id: databaseId status coverage duration createdAt user { username } commit { id shortId title } pipeline { id: databaseId sha } project { id: databaseId pathWithNamespace } } } }`,
    );
    const nodes = gql.body.data.runnerJobs.nodes;
    expect(gql.body.data.runnerJobs.total).toBe(2);
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
      (await api(t, ROOT_TOKEN).graphql(`{ runnerJobs(id: ${w.specific.id}, status: FAILED) { total } }`)).body.data
        .runnerJobs.total,
    ).toBe(1);
  });

  it('Runner.jobs is batched: a runner list with jobs costs the same statements for 1 and for 20 runners', async () => {
    const w = await runnerWorld(t);
    await createJob(t, { runner: w.specific, project: w.project, user: w.master });
    const q =
      '{ allRunners(perPage: 20) { nodes { id jobs(perPage: 2) { total nodes { id user { id } commit { id } pipeline { id } project { id nameWithNamespace } } } } } }';
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
    const nodes = twenty.result.body.data.allRunners.nodes;
    expect(nodes).toHaveLength(20);
    expect(nodes[19].jobs.total).toBe(2);
    expect(twenty.count).toBe(one.count);
    // Non-owners get null jobs (not an error) for runners they may read but not list jobs of.
    const shared = await api(t, w.master.token).graphql(`{ runner(id: ${w.shared.id}) { jobs { total } } }`);
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
